import Foundation
import RefrainTags

/// A user's search text taken apart into safe pieces for each way of matching.
///
/// Nothing the user types reaches SQLite as query syntax: words become quoted prefix phrases
/// (`"lov"*`), substrings become quoted phrases with `"` doubled, plain scans compare text
/// with `instr`, and LIKE patterns (playlist names) escape `%`, `_` and `\`. So quotes, `*`,
/// `NEAR`, `AND`, `:` and parentheses are searched for as text.
struct LocalSearchQuery: Equatable {
  /// The text in canonical (NFC) form with runs of white space collapsed to one space.
  let text: String
  /// The text as a title key (lowercased), for the exact-title and title-prefix ranks.
  let key: String
  /// Letter-and-digit words, as the `unicode61` tokenizer splits them.
  let words: [String]
  /// The space-separated chunks, for substring matching.
  let chunks: [String]

  /// Takes `text` apart; `nil` when it holds nothing to search for.
  init?(_ raw: String) {
    chunks = raw.precomposedStringWithCanonicalMapping.split(whereSeparator: \.isWhitespace)
      .map(String.init)
    guard !chunks.isEmpty else { return nil }
    text = chunks.joined(separator: " ")
    key = LocalText.key(text)
    words = Self.words(in: text)
  }

  /// `"w1"* "w2"*`: every word as a prefix, for the `unicode61` tables; `nil` without words.
  var prefixPattern: String? {
    guard !words.isEmpty else { return nil }
    return words.map { Self.quoted($0) + "*" }.joined(separator: " ")
  }

  /// The prefix pattern limited to some columns: `{title artist} : ("w1"* "w2"*)`.
  func prefixPattern(inColumns columns: [String]) -> String? {
    prefixPattern.map { "{\(columns.joined(separator: " "))} : (\($0))" }
  }

  /// `"c1" "c2"`: every chunk as a substring, for the `trigram` tables; `nil` when a chunk is
  /// shorter than the three characters a trigram needs.
  var substringPattern: String? {
    guard chunks.allSatisfy({ $0.unicodeScalars.count >= 3 }) else { return nil }
    return chunks.map(Self.quoted).joined(separator: " ")
  }

  /// The substring pattern limited to some columns: `{title} : ("c1" "c2")`.
  func substringPattern(inColumns columns: [String]) -> String? {
    substringPattern.map { "{\(columns.joined(separator: " "))} : (\($0))" }
  }

  /// For queries with a one- or two-character Korean, Japanese or Chinese chunk: that chunk as
  /// a token of the grams columns (`{title_grams} : "랑해"`), the other chunks as word
  /// prefixes; within the title (`titleColumn`) only, or within any column when it is `nil`.
  func gramsPattern(titleColumn: String?) -> String? {
    guard substringPattern == nil, chunks.contains(where: CJKGrams.isShortCJK) else { return nil }
    let grams = titleColumn == nil ? "{title_grams other_grams}" : "{title_grams}"
    var parts: [String] = []
    for chunk in chunks {
      if CJKGrams.isShortCJK(chunk) {
        parts.append("\(grams) : " + Self.quoted(chunk))
      } else {
        let chunkWords = Self.words(in: chunk)
        guard !chunkWords.isEmpty else { return nil }
        let prefixes = chunkWords.map { Self.quoted($0) + "*" }.joined(separator: " ")
        parts.append(titleColumn.map { "{\($0)} : (\(prefixes))" } ?? prefixes)
      }
    }
    // An explicit AND: FTS5 refuses a column filter right after another phrase without one.
    return parts.joined(separator: " AND ")
  }

  /// The chunks to find by a plain scan, for text no index can answer.
  ///
  /// That is text with no letters or digits and shorter than three characters (`%`, `((`);
  /// case does not matter for it.
  var scanChunks: [String]? {
    guard prefixPattern == nil, substringPattern == nil, gramsPattern(titleColumn: nil) == nil
    else { return nil }
    return chunks
  }

  /// The key's upper bound for a range scan: every key that starts with `key` sorts below it.
  var keyUpperBound: String { key + "\u{10FFFF}" }

  /// The letter-and-digit runs of `text`.
  private static func words(in text: String) -> [String] {
    text.split { !($0.isLetter || $0.isNumber) }.map(String.init)
  }

  /// A double-quoted FTS5 string (an inner `"` is doubled).
  static func quoted(_ text: String) -> String {
    "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
  }

  /// Text with the LIKE wildcards and the escape character escaped by `\`.
  static func likeEscaped(_ text: String) -> String {
    var out = ""
    for character in text {
      if character == "%" || character == "_" || character == "\\" { out.append("\\") }
      out.append(character)
    }
    return out
  }
}
