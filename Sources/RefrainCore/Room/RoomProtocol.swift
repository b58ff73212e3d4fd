/// The fixed numbers of the listening-room protocol, version 2 (docs/room-protocol.md).
public enum RoomProtocol {
  /// The protocol version this side speaks: a member names it in `hello`; the server's
  /// `welcome` answers the version both speak.
  public static let version = 2
  /// The oldest version still spoken: a server welcomes a `hello` of any version from this
  /// one to ``version`` (version 2 only adds `queue_move`), and a member whose `hello` an
  /// older server refuses says hello again with this one.
  public static let oldestVersion = 1
  /// Whether a `hello` of `version` is welcome.
  public static func speaks(_ version: Int) -> Bool {
    (oldestVersion...self.version).contains(version)
  }
  /// The largest frame accepted; a larger one closes the connection (1009).
  public static let maxFrameBytes = 65_536
  /// The longest chat message, in characters, after cleaning.
  public static let chatMaxCharacters = 500
  /// Chat messages a member may send within ``chatWindow``.
  public static let chatBurst = 5
  /// The window of the chat rate, in seconds.
  public static let chatWindow = 5.0
  /// Frames of any kind a member may send within ``floodWindow`` before it is disconnected.
  public static let floodFrames = 100
  /// The window of the flood guard, in seconds.
  public static let floodWindow = 5.0
  /// The chat messages a member sees about a track when it joins or the track starts.
  public static let historyLimit = 50
  /// Seconds a connection may take to send `hello`.
  public static let helloTimeout = 10.0
  /// The longest display name, in characters, after cleaning.
  public static let nameMaxCharacters = 32
  /// The default heartbeat interval, in seconds.
  public static let defaultHeartbeat = 5.0

  /// Why `url` cannot address a room, or `nil` when it can: `ws://HOST[:PORT]/rooms/NAME`, or
  /// `wss://` with a host name (TLS names the server it checks, and the WebSocket client
  /// sends an IP address where a name belongs, so `wss://` to an address cannot connect).
  public static func problem(withRoomURL url: String) -> String? {
    let lower = url.lowercased()
    let secure = lower.hasPrefix("wss://")
    guard lower.hasPrefix("ws://") || secure, let slash = lower.range(of: "/rooms/") else {
      return "a room is ws://HOST:PORT/rooms/NAME or wss://HOST/rooms/NAME, not '\(url)'"
    }
    guard secure else { return nil }
    var host = lower[lower.index(lower.startIndex, offsetBy: 6)..<slash.lowerBound]
    if let at = host.lastIndex(of: "@") { host = host[host.index(after: at)...] }
    let bare = host.hasPrefix("[") ? host : Substring(host.split(separator: ":").first ?? "")
    let isAddress =
      bare.hasPrefix("[") || (!bare.isEmpty && bare.allSatisfy { $0.isNumber || $0 == "." })
    if isAddress {
      return "wss:// needs the room server's host name (the name on its certificate), "
        + "not the address '\(bare)'"
    }
    return nil
  }

  /// Whether `name` may name a room: 1 to 64 characters of `A–Z a–z 0–9 . _ -`.
  public static func isValidRoomName(_ name: String) -> Bool {
    guard (1...64).contains(name.utf8.count) else { return false }
    return name.utf8.allSatisfy { byte in
      switch byte {
      case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
        UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "."), UInt8(ascii: "_"),
        UInt8(ascii: "-"):
        return true
      default:
        return false
      }
    }
  }

  /// A display name as others see it: cleaned like chat, trimmed, cut to
  /// ``nameMaxCharacters``; `nil` when nothing is left.
  public static func cleanName(_ name: String) -> String? {
    let cleaned = TerminalSanitizer.clean(name).trimmingCharacters(in: .whitespaces)
    guard !cleaned.isEmpty else { return nil }
    return String(cleaned.prefix(nameMaxCharacters))
  }
}
