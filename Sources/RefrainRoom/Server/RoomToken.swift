import Foundation

/// The room server's access token: random, made on the first start and kept in
/// `$XDG_DATA_HOME/refrain/room-token` with mode 0600, so members keep working across
/// restarts.
public enum RoomToken {
  /// The token file's place.
  public static func fileURL(environment: [String: String]) -> URL {
    dataDirectory(environment: environment).appendingPathComponent("room-token")
  }

  /// Refrain's data folder: `$XDG_DATA_HOME/refrain`, or `~/.local/share/refrain`.
  public static func dataDirectory(environment: [String: String]) -> URL {
    if let data = environment["XDG_DATA_HOME"], data.hasPrefix("/") {
      return URL(fileURLWithPath: data, isDirectory: true).appendingPathComponent("refrain")
    }
    let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
    return URL(fileURLWithPath: home, isDirectory: true)
      .appendingPathComponent(".local/share/refrain", isDirectory: true)
  }

  /// The token in the file, or a new one written there (mode 0600, atomically).
  public static func loadOrCreate(at url: URL) throws -> String {
    if let text = try? String(contentsOf: url, encoding: .utf8) {
      let token = text.trimmingCharacters(in: .whitespacesAndNewlines)
      if token.count >= 16 { return token }
    }
    try FileManager.default.createDirectory(
      at: url.deletingLastPathComponent(), withIntermediateDirectories: true,
      attributes: [.posixPermissions: 0o700])
    var generator = SystemRandomNumberGenerator()
    let token = (0..<24).map { _ in
      String(format: "%02x", UInt8.random(in: 0...255, using: &generator))
    }
    .joined()
    let temporary = url.path + ".tmp.\(getpid())"
    let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
    guard descriptor >= 0 else {
      throw RoomServerError.cannotStart(
        "cannot write \(url.path): \(String(cString: strerror(errno)))")
    }
    let bytes = Array((token + "\n").utf8)
    let written = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
    fsync(descriptor)
    close(descriptor)
    guard written == bytes.count, rename(temporary, url.path) == 0 else {
      unlink(temporary)
      throw RoomServerError.cannotStart("cannot write \(url.path)")
    }
    return token
  }

  /// Whether `given` is `token`, compared in constant time.
  public static func matches(_ given: String?, _ token: String) -> Bool {
    guard let given else { return false }
    let a = Array(given.utf8)
    let b = Array(token.utf8)
    guard a.count == b.count else { return false }
    var difference: UInt8 = 0
    for index in a.indices { difference |= a[index] ^ b[index] }
    return difference == 0
  }
}

/// Why the room server cannot start.
public enum RoomServerError: Error, CustomStringConvertible, Equatable {
  case cannotStart(String)

  public var description: String {
    switch self {
    case .cannotStart(let reason): return reason
    }
  }
}
