import Foundation

/// Escape sequences of the kitty graphics protocol (`ESC _ G keys ; payload ESC \`); pure
/// encoders and one reply parser, no I/O.
///
/// The intended use: send `query(id:)` once at start-up and read the reply with
/// `parseReply`; when it is OK, transmit each cover once under an id, place it at the cursor
/// for each frame that shows it, and delete it when the track changes or the player quits
/// (the terminal keeps image data until then).
public enum KittyGraphics {
  /// The image's pixel data as sent: raw 8-bit RGB (`f=24`) or a PNG file (`f=100`).
  public enum Payload: Sendable {
    case rgb(RGBImage)
    case png(Data)
  }

  /// The most base64 bytes one chunk carries, as the protocol asks.
  public static let chunkSize = 4096

  /// The support query: a 1×1 RGB image under `id`, which a kitty-capable terminal answers
  /// with `ESC _ G i=<id>;OK ESC \` and does not show.
  public static func query(id: UInt32 = 31) -> String {
    apc("i=\(id),s=1,v=1,a=q,t=d,f=24", payload: "AAAA")
  }

  /// The answer to a command with an id, parsed from what the terminal sent back.
  public struct Reply: Equatable, Sendable {
    public var id: UInt32
    /// `OK`, or the terminal's error, such as `ENOENT:…`.
    public var message: String
    public var isOK: Bool { message == "OK" }
  }

  /// The first graphics reply in `bytes` (input read from the terminal, which may carry other
  /// bytes around it); `nil` when there is none or it is incomplete.
  public static func parseReply<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> Reply? {
    let input = Array(bytes)
    let start: [UInt8] = [0x1B, 0x5F, 0x47]  // ESC _ G
    guard let open = firstIndex(of: start, in: input, from: 0),
      let close = firstIndex(of: [0x1B, 0x5C], in: input, from: open + 3)
    else { return nil }
    let body = String(decoding: input[(open + 3)..<close], as: UTF8.self)
    guard let semicolon = body.firstIndex(of: ";") else { return nil }
    var id: UInt32?
    for pair in body[..<semicolon].split(separator: ",") {
      let parts = pair.split(separator: "=", maxSplits: 1)
      if parts.count == 2, parts[0] == "i" { id = UInt32(parts[1]) }
    }
    guard let id else { return nil }
    return Reply(id: id, message: String(body[body.index(after: semicolon)...]))
  }

  /// Transmits an image under `id` without showing it (`a=t`), base64 in chunks of at most
  /// `chunkSize` bytes (`m=1` on all but the last), replies suppressed (`q=2`).
  public static func transmit(id: UInt32, _ payload: Payload) -> String {
    let keys: String
    let data: Data
    switch payload {
    case .rgb(let image):
      keys = "a=t,i=\(id),f=24,s=\(image.width),v=\(image.height),t=d,q=2"
      data = Data(image.pixels)
    case .png(let png):
      keys = "a=t,i=\(id),f=100,t=d,q=2"
      data = png
    }
    let encoded = Array(data.base64EncodedString().utf8)
    guard !encoded.isEmpty else { return apc(keys + ",m=0", payload: "") }
    var out = ""
    var offset = 0
    while offset < encoded.count {
      let end = min(encoded.count, offset + chunkSize)
      let more = end < encoded.count ? 1 : 0
      let chunk = String(decoding: encoded[offset..<end], as: UTF8.self)
      // Only the first chunk carries the keys; the rest say m (and q) alone.
      out += apc(offset == 0 ? "\(keys),m=\(more)" : "m=\(more),q=2", payload: chunk)
      offset = end
    }
    return out
  }

  /// Shows the transmitted image `id` at the cursor, scaled to `columns × rows` cells,
  /// without moving the cursor (`C=1`).
  public static func place(id: UInt32, columns: Int, rows: Int) -> String {
    apc("a=p,i=\(id),c=\(columns),r=\(rows),C=1,q=2", payload: nil)
  }

  /// Deletes image `id`: its placements and its data (`d=I`).
  public static func delete(id: UInt32) -> String {
    apc("a=d,d=I,i=\(id),q=2", payload: nil)
  }

  /// `ESC _ G keys [; payload] ESC \`.
  static func apc(_ keys: String, payload: String?) -> String {
    "\u{1B}_G" + keys + (payload.map { ";" + $0 } ?? "") + "\u{1B}\\"
  }

  private static func firstIndex(of needle: [UInt8], in haystack: [UInt8], from: Int) -> Int? {
    guard haystack.count >= needle.count, from <= haystack.count - needle.count else { return nil }
    return (from...(haystack.count - needle.count)).first { index in
      haystack[index..<index + needle.count].elementsEqual(needle)
    }
  }
}
