import Foundation
import RefrainCore

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
    DataFolder.url(environment: environment)
  }

  /// The token in the file, or a new one written there as a ``PrivateFile`` (mode 0600, in a
  /// folder of mode 0700, written whole or not at all).
  public static func loadOrCreate(at url: URL) throws -> String {
    if let text = try? String(contentsOf: url, encoding: .utf8) {
      let token = text.trimmingCharacters(in: .whitespacesAndNewlines)
      if token.count >= 16 { return token }
    }
    var generator = SystemRandomNumberGenerator()
    let token = (0..<24).map { _ in
      String(format: "%02x", UInt8.random(in: 0...255, using: &generator))
    }
    .joined()
    guard PrivateFile.write(Data((token + "\n").utf8), to: url) else {
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
