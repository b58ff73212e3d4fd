import Foundation

/// Reads LRC lyrics, in every common variant, into a `LyricsDocument`.
///
/// The parser never fails: lines it cannot use are skipped and counted in
/// `LyricsDocument.skipped`. The rules, line by line:
/// - `[mm:ss.xx]text`: a timed line (see `LRCTimeTag` for the accepted time shapes);
///   several leading time tags repeat the line at each time; a line with no text is a break;
/// - `[key:value]` alone on a line: an ID tag (keys are case-insensitive, the last one wins);
/// - `[:]…`: a comment, ignored and not counted;
/// - LRCX attachments (`[mm:ss.xx][tt]…`, `[fu]…`, `[tr:…]…`): ignored and not counted;
/// - blank lines: ignored and not counted;
/// - anything else (untimed text, `[01:60.00]x`, `[abc]x`): skipped and counted.
///
/// A file without a single valid time tag is plain lyrics: `isSynced` is `false` and the
/// lines are its text lines (ID tags and comments left out, blank runs kept as one `""`),
/// each at `ms == 0`, with `skipped == 0`.
public enum LRCParser {
  /// The largest `[offset:]` Refrain accepts, in milliseconds; larger values are ignored.
  public static let maxOffsetMs = 86_400_000

  /// Parses LRC text.
  public static func parse(_ text: String) -> LyricsDocument {
    var bytes = Array(text.utf8)
    let start = contentStart(bytes)
    if start > 0 { bytes.removeFirst(start) }

    var tags: [String: String] = [:]
    var timed: [LyricLine] = []
    var plain: [String] = []
    var skipped = 0
    var isSynced = false

    for range in lineRanges(bytes) {
      switch LRCLine.classify(bytes, range) {
      case .blank:
        plain.append("")
      case .comment:
        break
      case .tag(let key, let value):
        tags[key] = value
      case .attachment:
        isSynced = true
      case .timed(let stamps, let bodyRange):
        isSynced = true
        let first = stamps[0]
        let body = LRCLineBody(bytes, bodyRange, lineMs: first)
        for stamp in stamps {
          let copy = body.shifted(by: stamp - first)
          timed.append(LyricLine(ms: stamp, text: copy.text, words: copy.words, endMs: copy.endMs))
        }
      case .text, .invalid:
        skipped += 1
        plain.append(LRCLineBody.normalizedText(bytes[range]))
      }
    }

    let offsetMs = tags["offset"].map(offset(from:)) ?? 0
    guard isSynced else {
      let lines = plainLines(plain).map { LyricLine(ms: 0, text: $0) }
      return LyricsDocument(tags: tags, offsetMs: offsetMs, lines: lines, isSynced: false)
    }
    return LyricsDocument(
      tags: tags, offsetMs: offsetMs, lines: timed.sortedByTime(), skipped: skipped,
      isSynced: true)
  }

  /// Parses the bytes of an LRC file in UTF-8 (with or without BOM), UTF-16 with BOM,
  /// or, failing those, Latin-1.
  public static func parse(data: Data) -> LyricsDocument {
    parse(LyricsTextDecoder.decode(data))
  }

  /// Reads an `[offset:]` value: an optionally signed whole number of milliseconds, else 0.
  static func offset(from value: String) -> Int {
    guard let ms = Int(value), abs(ms) <= maxOffsetMs else { return 0 }
    return ms
  }

  /// Where the lyrics start: after a UTF-8 BOM and an ID3 USLT language prefix (`eng||`).
  private static func contentStart(_ bytes: [UInt8]) -> Int {
    var start = 0
    if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { start = 3 }
    var letters = start
    while letters < bytes.count, letters - start < 3, LRCByte.isLetter(bytes[letters]) {
      letters += 1
    }
    let bars = [LRCByte.verticalBar, LRCByte.verticalBar]
    if letters - start >= 2, bytes[letters...].starts(with: bars) { start = letters + 2 }
    return start
  }

  /// Splits the text into lines at LF, CRLF or a lone CR.
  private static func lineRanges(_ bytes: [UInt8]) -> [Range<Int>] {
    var ranges: [Range<Int>] = []
    var lineStart = 0
    var index = 0
    while index < bytes.count {
      let byte = bytes[index]
      if byte == LRCByte.lineFeed || byte == LRCByte.carriageReturn {
        ranges.append(lineStart..<index)
        let crlf =
          byte == LRCByte.carriageReturn && index + 1 < bytes.count
          && bytes[index + 1] == LRCByte.lineFeed
        index += crlf ? 2 : 1
        lineStart = index
      } else {
        index += 1
      }
    }
    if lineStart < bytes.count { ranges.append(lineStart..<bytes.count) }
    return ranges
  }

  /// Drops blank lines at both ends and keeps one `""` for each run of blank lines inside.
  private static func plainLines(_ texts: [String]) -> [String] {
    var lines: [String] = []
    for text in texts where !(text.isEmpty && (lines.last?.isEmpty ?? true)) {
      lines.append(text)
    }
    if lines.last?.isEmpty == true { lines.removeLast() }
    return lines
  }
}
