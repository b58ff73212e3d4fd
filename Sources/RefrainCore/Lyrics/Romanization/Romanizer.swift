import Foundation

/// Picks the romanization for a lyric line, so that Refrain can show Korean and Japanese lines
/// with a second line in Latin letters.
///
/// Hangul goes to ``KoreanRomanizer`` and Japanese to ``JapaneseRomanizer``; a line with both
/// runs the Korean pass and then the Japanese pass. With a ``JapaneseDictionary`` installed
/// (``useJapaneseDictionary(_:)``; the `refrain` binary installs MeCab's), a Japanese line is
/// read word by word, kanji included (青い自転車 aoi jitensha); without one, only its kana are
/// romanized and kanji stay. Lines without Hangul syllables or kana (Latin, kanji alone, which
/// may as well be Chinese, blank lines) have no romanization.
public enum Romanizer {
  /// Returns the trimmed, romanized `line` when it holds Hangul or kana and the romanization
  /// differs from the trimmed line; nil otherwise. Japanese is read with the installed
  /// dictionary, if any.
  public static func romanize(_ line: String) -> String? {
    romanize(line, dictionary: installed.dictionary)
  }

  /// Returns the trimmed, romanized `line` when it holds Hangul or kana and the romanization
  /// differs from the trimmed line; nil otherwise. Japanese is read with `dictionary` when
  /// given, else by its kana alone.
  public static func romanize(_ line: String, dictionary: (any JapaneseDictionary)?) -> String? {
    let trimmed = line.trimmingCharacters(in: .whitespacesAndNewlines)
    var hasHangul = false
    var hasKana = false
    for scalar in trimmed.unicodeScalars {
      switch scalar.value {
      case 0xAC00...0xD7A3, 0x1100...0x11FF: hasHangul = true
      case 0x3041...0x3096, 0x30A1...0x30F6: hasKana = true
      default: break
      }
      if hasHangul && hasKana { break }
    }
    guard hasHangul || hasKana else { return nil }
    var text = trimmed
    if hasHangul { text = KoreanRomanizer.romanize(text) }
    if hasKana {
      if let dictionary {
        text = JapaneseRomanizer.romanize(words: dictionary.words(in: text))
      } else {
        text = JapaneseRomanizer.romanize(text)
      }
    }
    text = text.trimmingCharacters(in: .whitespacesAndNewlines)
    return text.isEmpty || text == trimmed ? nil : text
  }

  /// Makes ``romanize(_:)`` read Japanese with `dictionary` (`nil`: by kana alone), in every
  /// thread from now on. The composition root calls it once at start-up.
  public static func useJapaneseDictionary(_ dictionary: (any JapaneseDictionary)?) {
    installed.dictionary = dictionary
  }

  /// The dictionary ``romanize(_:)`` uses, behind a lock.
  private static let installed = InstalledDictionary()

  /// A dictionary slot that any thread may read while the composition root sets it.
  private final class InstalledDictionary: @unchecked Sendable {
    private let lock = NSLock()
    private var value: (any JapaneseDictionary)?

    var dictionary: (any JapaneseDictionary)? {
      get { lock.withLock { value } }
      set { lock.withLock { value = newValue } }
    }
  }
}
