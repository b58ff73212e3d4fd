import Foundation
import RefrainCore

/// Where `refrain scrobble login lastfm` keeps the Last.fm session:
/// `$XDG_DATA_HOME/refrain/lastfm-session.json` (next to the library), mode 0600.
///
/// The file is written under a temporary name created with mode 0600 and renamed into place,
/// so it is never readable by others, not even for a moment, and never half written.
public struct LastFMSessionFile: Sendable {
  /// The file's location.
  public let url: URL

  /// The file at `url`.
  public init(url: URL) { self.url = url }

  /// The file in Refrain's data folder for `environment`.
  public static func standard(
    environment: [String: String] = ProcessInfo.processInfo.environment
  ) -> LastFMSessionFile {
    LastFMSessionFile(
      url: LibraryStore.defaultFileURL(environment: environment).deletingLastPathComponent()
        .appendingPathComponent("lastfm-session.json"))
  }

  /// The stored session, or `nil` when there is none or it cannot be read.
  public func load() -> LastFMSession? {
    guard let data = try? Data(contentsOf: url) else { return nil }
    return try? JSONDecoder().decode(LastFMSession.self, from: data)
  }

  /// Stores `session`, readable only by the user.
  public func save(_ session: LastFMSession) throws(LastFMSessionFileError) {
    let folder = url.deletingLastPathComponent()
    do {
      try FileManager.default.createDirectory(
        at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    } catch {
      throw .unwritable(path: folder.path)
    }
    let temporary = url.path + ".tmp-\(getpid())"
    let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_EXCL | O_CLOEXEC, 0o600)
    guard descriptor >= 0 else { throw .unwritable(path: url.path) }
    let data = JSONOutput.data(session)
    let written = data.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
    let synced = fsync(descriptor) == 0
    close(descriptor)
    guard written == data.count, synced, rename(temporary, url.path) == 0 else {
      unlink(temporary)
      throw .unwritable(path: url.path)
    }
  }
}

/// Why the Last.fm session could not be stored.
public enum LastFMSessionFileError: Error, Equatable, CustomStringConvertible {
  /// The file or its folder cannot be written.
  case unwritable(path: String)

  public var description: String {
    switch self {
    case .unwritable(let path):
      return "cannot write \(path); check that the folder exists and is yours"
    }
  }
}
