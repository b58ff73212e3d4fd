import Foundation

/// A radio playlist file: `.pls`, or plain `.m3u`/`.m3u8` (not HLS), read into the streams it
/// lists, in order.
public enum StreamPlaylist {
  /// Why a playlist gives nothing to play.
  public enum Problem: Error, Equatable, CustomStringConvertible {
    /// An HLS playlist (`#EXT-X-…` tags): segments, not a stream.
    case hls
    /// No entries at all.
    case empty

    public var description: String {
      switch self {
      case .hls: return "an HLS playlist (#EXT-X- tags), which Refrain does not play"
      case .empty: return "a playlist that lists no streams"
      }
    }
  }

  /// The most bytes of a playlist Refrain reads: a radio playlist lists a few streams.
  public static let maxBytes = 1 << 20
  /// The most entries of a playlist Refrain reads.
  public static let maxEntries = 10_000

  /// A playlist's entries, and whether a cap cut it short.
  public struct Listing: Sendable, Equatable {
    /// The entries read, in order: whole lines only, at most ``StreamPlaylist/maxEntries``.
    public var entries: [URL]
    /// Whether the playlist holds more than was read (over ``StreamPlaylist/maxBytes`` or
    /// ``StreamPlaylist/maxEntries``).
    public var isCut: Bool

    /// One line saying what was left out, when something was.
    public func capNotice(name: String) -> String? {
      guard isCut else { return nil }
      return "\(name): a playlist is read up to \(StreamPlaylist.maxEntries) entries or "
        + "\(StreamPlaylist.maxBytes >> 20) MiB; only its first \(entries.count) entries are used"
    }
  }

  /// The entries of a playlist from its first bytes: `bytes` holds up to
  /// ``maxBytes`` + 1 bytes of it (more than ``maxBytes`` means the file goes on).
  ///
  /// A cut file loses the line the cut falls in, so no entry is ever a partial line; the
  /// entries stop at ``maxEntries``. Throws as ``entries(in:base:)`` does.
  public static func listing(of bytes: [UInt8], base: URL) throws -> Listing {
    var text = bytes
    var cut = false
    if text.count > maxBytes {
      cut = true
      text.removeSubrange(maxBytes...)
      let lineEnd = text.lastIndex { $0 == 0x0A || $0 == 0x0D } ?? 0
      text.removeSubrange(lineEnd...)
    }
    var entries = try entries(in: String(decoding: text, as: UTF8.self), base: base)
    if entries.count > maxEntries {
      cut = true
      entries.removeSubrange(maxEntries...)
    }
    return Listing(entries: entries, isCut: cut)
  }

  /// The file-name endings of the playlists Refrain reads.
  public static let extensions: Set<String> = ["pls", "m3u", "m3u8"]

  /// Whether a resource named `name` (a path or URL) whose first bytes are `head` is a
  /// playlist: by its ending, or a head that begins `[playlist]` or `#EXTM3U`.
  public static func recognizes(name: String, head: [UInt8]) -> Bool {
    let ending = (URL(string: name)?.pathExtension ?? (name as NSString).pathExtension)
      .lowercased()
    if extensions.contains(ending) { return true }
    let text = String(decoding: head.prefix(64), as: UTF8.self)
      .trimmingCharacters(in: CharacterSet.whitespacesAndNewlines.union(["\u{FEFF}"]))
      .lowercased()
    return text.hasPrefix("[playlist]") || text.hasPrefix("#extm3u")
  }

  /// The entries of a playlist's text, in order: a PLS's `FileN=` by N, or an M3U's lines
  /// that are not comments. Each is resolved against `base` (the playlist's own URL or
  /// file), so relative entries work.
  public static func entries(in text: String, base: URL) throws -> [URL] {
    let lines = text.replacingOccurrences(of: "\u{FEFF}", with: "")
      .split(whereSeparator: \.isNewline)
      .map { $0.trimmingCharacters(in: .whitespaces) }
      .filter { !$0.isEmpty }
    let pls = lines.first?.lowercased() == "[playlist]"
    var raw: [String]
    if pls {
      var numbered: [(Int, String)] = []
      for line in lines {
        guard let equals = line.firstIndex(of: "=") else { continue }
        let key = line[..<equals].trimmingCharacters(in: .whitespaces).lowercased()
        guard key.hasPrefix("file"), let number = Int(key.dropFirst(4)) else { continue }
        numbered.append(
          (number, line[line.index(after: equals)...].trimmingCharacters(in: .whitespaces)))
      }
      raw = numbered.sorted { $0.0 < $1.0 }.map(\.1)
    } else {
      if lines.contains(where: { $0.hasPrefix("#EXT-X-") }) { throw Problem.hls }
      raw = lines.filter { !$0.hasPrefix("#") }
    }
    raw.removeAll { $0.isEmpty }
    let urls = raw.compactMap { resolve($0, base: base) }
    if urls.isEmpty { throw Problem.empty }
    return urls
  }

  /// An entry as a URL: absolute as written, else relative to `base`'s folder.
  static func resolve(_ entry: String, base: URL) -> URL? {
    if let url = URL(string: entry), let scheme = url.scheme, scheme.count > 1 { return url }
    if base.isFileURL {
      if entry.hasPrefix("/") { return URL(fileURLWithPath: entry) }
      return base.deletingLastPathComponent().appendingPathComponent(entry).standardizedFileURL
    }
    let escaped = entry.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? entry
    return URL(string: escaped, relativeTo: base)?.absoluteURL
  }
}
