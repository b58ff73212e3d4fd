import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// Files only the user may read (sessions, tokens, logins), written whole or not at all: the
/// one way Refrain writes a credential.
///
/// The data goes to a temporary name created with mode 0600 in a folder of mode 0700, is
/// synced, and is renamed into place: the file is never readable by others, not even for a
/// moment, and never half written, whenever the process is killed.
public enum PrivateFile {
  /// Writes `data` to `url`; `false` when the folder or file cannot be written.
  public static func write(_ data: Data, to url: URL) -> Bool {
    let folder = url.deletingLastPathComponent()
    do {
      try FileManager.default.createDirectory(
        at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    } catch {
      return false
    }
    let temporary = url.path + ".tmp-\(getpid())"
    unlink(temporary)
    let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_EXCL | O_CLOEXEC, 0o600)
    guard descriptor >= 0 else { return false }
    let written = data.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
    let synced = fsync(descriptor) == 0
    close(descriptor)
    guard written == data.count, synced, rename(temporary, url.path) == 0 else {
      unlink(temporary)
      return false
    }
    return true
  }
}

/// Refrain's data folder, where the library and the private files live:
/// `$XDG_DATA_HOME/refrain` (an absolute `XDG_DATA_HOME`), else `~/.local/share/refrain`.
public enum DataFolder {
  /// The folder for `environment`.
  public static func url(
    environment: [String: String] = ProcessInfo.processInfo.environment
  ) -> URL {
    let base: URL
    if let data = environment["XDG_DATA_HOME"], data.hasPrefix("/") {
      base = URL(fileURLWithPath: data, isDirectory: true)
    } else {
      let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
      base = URL(fileURLWithPath: home, isDirectory: true)
        .appendingPathComponent(".local/share", isDirectory: true)
    }
    return base.appendingPathComponent("refrain", isDirectory: true)
  }
}

/// A JSON value in Refrain's data folder (beside the library), kept as a ``PrivateFile``:
/// mode 0600, written whole or not at all.
public struct PrivateJSONFile<Value: Codable & Sendable>: Sendable {
  /// The file's location.
  public let url: URL

  /// The file at `url`.
  public init(url: URL) { self.url = url }

  /// The file `name` in Refrain's data folder for `environment` (``DataFolder``).
  public init(named name: String, environment: [String: String]) {
    url = DataFolder.url(environment: environment).appendingPathComponent(name)
  }

  /// The stored value, or `nil` when there is none or it cannot be read.
  public func load() -> Value? {
    guard let data = try? Data(contentsOf: url) else { return nil }
    return try? JSONDecoder().decode(Value.self, from: data)
  }

  /// Stores `value`, readable only by the user; `false` when it cannot be written.
  public func save(_ value: Value) -> Bool {
    PrivateFile.write(JSONOutput.data(value), to: url)
  }

  /// Removes the file; `true` when there was one.
  @discardableResult
  public func remove() -> Bool { unlink(url.path) == 0 }
}
