import Foundation

/// Tap-to-sync: timing a song's lines by stamping each as it is heard.
///
/// The lines to stamp are the originals of the lyrics (plain lyrics' lines, or a synced
/// file's lines without their translations, which take their original's time). Stamps go in
/// order: the next stamp is for the first line without one, and a stamp is never earlier
/// than the one before it. Pure: the session supplies the audible times.
public struct LyricsSync: Sendable, Equatable {
  /// One line to time: its text and the translations that go with it.
  public struct Entry: Sendable, Equatable {
    public var text: String
    public var translations: [String]
    /// When the line is heard, in milliseconds; `nil` until stamped. In word mode, the time
    /// of its first word.
    public var ms: Int? {
      get { wordTimes.isEmpty ? lineMs : wordTimes[0] }
      set {
        if wordTimes.isEmpty {
          lineMs = newValue
        } else if let newValue, let old = wordTimes[0] {
          // Moving the line moves its words with it.
          wordTimes = wordTimes.map { $0.map { $0 + newValue - old } }
        } else {
          wordTimes[0] = newValue
        }
      }
    }
    /// The line's words, in word mode (split at spaces; a line without spaces is one word).
    public var words: [String]
    /// When each word is heard, in word mode.
    public var wordTimes: [Int?]
    private var lineMs: Int?

    init(text: String, translations: [String], wordMode: Bool) {
      self.text = text
      self.translations = translations
      words = wordMode ? text.split(separator: " ").map(String.init) : []
      wordTimes = Array(repeating: nil, count: words.count)
    }

    /// Whether every word (or the line) is stamped.
    var isStamped: Bool { wordTimes.isEmpty ? lineMs != nil : wordTimes.allSatisfy { $0 != nil } }
    /// The latest stamp in the line.
    var lastMs: Int? { wordTimes.isEmpty ? lineMs : wordTimes.compactMap { $0 }.last }
  }

  /// The lines, in order.
  public private(set) var entries: [Entry]
  /// The document's tags (`ti`, `ar`, …), kept when saving.
  public let tags: [String: String]
  /// Whether each word is stamped (enhanced LRC) rather than each line.
  public let wordMode: Bool

  /// A sync of `document`'s lines, none stamped yet; `wordMode` stamps word by word.
  public init(document: LyricsDocument, wordMode: Bool = false) {
    self.wordMode = wordMode
    tags = document.tags
    let lines = document.isSynced ? document.lines.sortedByTime() : document.lines
    let groups = LyricGroups(lines: lines, synced: document.isSynced)
    var entries: [Entry] = []
    for (index, line) in lines.enumerated() {
      switch groups.roles[index] {
      case .original:
        entries.append(Entry(text: line.text, translations: [], wordMode: wordMode))
      case .translation: entries[entries.count - 1].translations.append(line.text)
      case .duplicate: continue
      }
    }
    self.entries = entries
  }

  /// The line the next stamp is for; `entries.count` when every line is stamped.
  public var next: Int { entries.firstIndex { !$0.isStamped } ?? entries.count }
  /// In word mode, the word of ``next`` the next stamp is for.
  public var nextWord: Int? {
    guard wordMode, entries.indices.contains(next) else { return nil }
    return entries[next].wordTimes.firstIndex { $0 == nil }
  }
  /// How many lines are stamped.
  public var stamped: Int { next }
  /// Whether every line is stamped.
  public var isComplete: Bool { next == entries.count }

  /// The least time between two stamps, in milliseconds: one hundredth, the LRC file's
  /// unit, so two lines never share a time (which would read as a translation).
  public static let gap = 10

  /// Stamps the next line at `ms` (raised to a hundredth after the previous stamp if not
  /// later); returns the line and the time stamped, or `nil` when every line is stamped.
  public mutating func stamp(at ms: Int) -> (line: Int, ms: Int)? {
    let line = next
    guard line < entries.count else { return nil }
    let previous = entries[line].lastMs ?? (line > 0 ? entries[line - 1].lastMs : nil)
    let time = max(ms, previous.map { $0 + Self.gap } ?? 0, 0)
    if let word = nextWord {
      entries[line].wordTimes[word] = time
    } else {
      entries[line].ms = time
    }
    return (line, time)
  }

  /// Removes the last stamp; returns the line and the time it had, or `nil` when none.
  public mutating func undo() -> (line: Int, ms: Int)? {
    // The line being stamped word by word, or the last one stamped.
    let partial = entries.indices.contains(next) && entries[next].lastMs != nil
    let line = partial ? next : next - 1
    guard line >= 0, let ms = entries[line].lastMs else { return nil }
    if let word = entries[line].wordTimes.lastIndex(where: { $0 != nil }) {
      entries[line].wordTimes[word] = nil
    } else {
      entries[line].ms = nil
    }
    return (line, ms)
  }

  /// Moves a stamped line's time by `deltaMs`, kept a hundredth inside its neighbours'; returns
  /// the new time, or `nil` when the line is not stamped.
  public mutating func nudge(line: Int, by deltaMs: Int) -> Int? {
    guard entries.indices.contains(line), entries[line].isStamped, let ms = entries[line].ms
    else { return nil }
    // The whole line moves: its last word stays a hundredth before the next line.
    let span = (entries[line].lastMs ?? ms) - ms
    let low = line > 0 ? (entries[line - 1].lastMs ?? 0) + Self.gap : 0
    let high =
      line + 1 < entries.count
      ? (entries[line + 1].ms ?? Int.max - span) - Self.gap - span : Int.max
    let moved = min(max(ms + deltaMs, low), high)
    entries[line].ms = moved
    return moved
  }

  /// The lyrics as they stand: stamped lines with their translations under them; lines
  /// not stamped yet are left out.
  public var document: LyricsDocument {
    var lines: [LyricLine] = []
    for entry in entries {
      guard entry.isStamped, let ms = entry.ms else { break }
      let words = zip(entry.words, entry.wordTimes).compactMap { word, time in
        time.map { LyricWord(ms: $0, text: word) }
      }
      lines.append(LyricLine(ms: ms, text: entry.text, words: words.isEmpty ? nil : words))
      lines += entry.translations.map { LyricLine(ms: ms, text: $0) }
    }
    return LyricsDocument(tags: tags, offsetMs: 0, lines: lines, skipped: 0, isSynced: true)
  }

  /// The LRC file Refrain saves: `[ti:]`, `[ar:]`, `[al:]`, `[length:]` and `[by:Refrain]`
  /// (given values win over the document's own tags), then each stamped line, with its
  /// translations under it at the same time.
  public func lrc(title: String?, artist: String?, album: String?, length: Double?) -> String {
    func tag(_ key: String, _ value: String?) -> String? {
      guard let value = (value ?? tags[key])?.replacingOccurrences(of: "\n", with: " "),
        !value.isEmpty
      else { return nil }
      return "[\(key):\(value.replacingOccurrences(of: "]", with: ")"))]"
    }
    var out: [String] = []
    out += [tag("ti", title), tag("ar", artist), tag("al", album)].compactMap { $0 }
    if let length, length.isFinite, length > 0 {
      let seconds = Int(length.rounded())
      out.append(String(format: "[length:%d:%02d]", seconds / 60, seconds % 60))
    }
    out.append("[by:Refrain]")
    for line in document.lines {
      if let words = line.words {
        // Enhanced LRC (A2): each word after its own time.
        let timed = words.map {
          Self.stamp($0.ms).replacingOccurrences(of: "[", with: "<")
            .replacingOccurrences(of: "]", with: ">") + $0.text
        }
        out.append(Self.stamp(line.ms) + timed.joined(separator: " "))
      } else {
        out.append(Self.stamp(line.ms) + line.text)
      }
    }
    return out.joined(separator: "\n") + "\n"
  }

  /// `[mm:ss.xx]` for a time in milliseconds (hundredths, as LRC players expect).
  public static func stamp(_ ms: Int) -> String {
    let hundredths = (max(0, ms) + 5) / 10
    return String(
      format: "[%02d:%02d.%02d]", hundredths / 6000, hundredths / 100 % 60, hundredths % 100)
  }
}
