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
