import Foundation
import RefrainCatalog
import RefrainCore

/// Where `refrain scrobble login lastfm` keeps the Last.fm session:
/// `$XDG_DATA_HOME/refrain/lastfm-session.json` (next to the library), mode 0600.
///
/// It is written as a ``PrivateFile``: readable only by the user, never half written.
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
    guard PrivateFile.write(JSONOutput.data(session), to: url) else {
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
