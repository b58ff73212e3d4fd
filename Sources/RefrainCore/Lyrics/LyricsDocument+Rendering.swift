import Foundation

/// The output of `refrain lyrics FILE`: JSON (`--json`) and a readable timeline.
///
/// The JSON shape is a contract that tests and benchmarks depend on:
/// `{"tags":{…},"offset_ms":N,"lines":[{"ms":N,"text":"…","words":[{"ms":N,"text":"…"}]}],
/// "skipped":N}`. Lines keep the document's stable order, `ms` does not include the offset,
/// and `words` appears only on word-timed lines.
extension LyricsDocument {
  /// The CLI JSON contract as compact UTF-8: `tags`, `offset_ms`, `lines` (each `ms`,
  /// `text`, `words` only on word-timed lines, and with `romanize` a `romanized` string on
  /// each line that has one) and `skipped`.
  public func jsonData(romanize: Bool = false) -> Data {
    JSONOutput.data(
      LyricsJSON(
        tags: tags, offsetMs: offsetMs,
        lines: lines.map { line in
          LyricsJSON.Line(
            ms: line.ms, text: line.text,
            words: line.words?.map { LyricsJSON.Word(ms: $0.ms, text: $0.text) },
            romanized: romanize ? Romanizer.romanize(line.text) : nil)
        }, skipped: skipped))
  }

  /// One line per lyric, `[mm:ss.xxx] text`, joined by `\n` without a trailing newline.
  ///
  /// Times are as written in the file (offset not applied); minutes may exceed 99.
  /// Plain lyrics print their text only.
  public func timelineText() -> String {
    lines.map { line in
      guard isSynced else { return line.text }
      let stamp = "[" + Self.clock(line.ms) + "]"
      return line.text.isEmpty ? stamp : stamp + " " + line.text
    }
    .joined(separator: "\n")
  }

  /// Formats milliseconds as `mm:ss.xxx`.
  static func clock(_ ms: Int) -> String {
    let sign = ms < 0 ? "-" : ""
    let magnitude = ms.magnitude
    let minutes = magnitude / 60_000
    let seconds = magnitude / 1000 % 60
    let millis = magnitude % 1000
    return sign + pad(minutes, 2) + ":" + pad(seconds, 2) + "." + pad(millis, 3)
  }

  /// Left-pads a number with zeros to `width` digits.
  private static func pad(_ value: UInt, _ width: Int) -> String {
    let digits = String(value)
    return String(repeating: "0", count: max(0, width - digits.count)) + digits
  }
}

/// `refrain lyrics --json`'s object.
private struct LyricsJSON: Encodable {
  struct Word: Encodable {
    var ms: Int
    var text: String
  }

  struct Line: Encodable {
    var ms: Int
    var text: String
    var words: [Word]?
    var romanized: String?
  }

  var tags: [String: String]
  var offsetMs: Int
  var lines: [Line]
  var skipped: Int

  enum CodingKeys: String, CodingKey {
    case tags, lines, skipped
    case offsetMs = "offset_ms"
  }
}
