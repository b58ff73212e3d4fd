import Foundation

/// One word of a Japanese text as a dictionary (MeCab with IPADIC) reads it.
public struct JapaneseWord: Sendable, Equatable {
  /// What the word is, as far as romanization cares.
  public enum Kind: Sendable, Equatable {
    /// A particle (は, へ, を, の, に…): a word of its own.
    case particle
    /// A conjunctive particle that ends a verb form (て, で, ば): written with the verb.
    case conjunctiveParticle
    /// An auxiliary verb (ます, た, ない, です…): written with a verb, an adjective or another
    /// auxiliary before it, else a word of its own (きれいです kirei desu).
    case auxiliary
    /// A verb: its dictionary form's last う is not a long vowel (思う omou).
    case verb
    /// A verb suffix (れる, られる, させる): written with the verb before it.
    case verbSuffix
    /// An adjective (青い): auxiliaries after it are written with it.
    case adjective
    /// Punctuation and other symbols: written as they are, with no space before.
    case symbol
    /// Every other word (nouns, adverbs, interjections, words the dictionary does not know).
    case other
  }

  /// The word as written.
  public var surface: String
  /// How it is read, in katakana (東京 トウキョウ); `nil` when the dictionary does not know.
  public var reading: String?
  /// How it is said, in katakana (the particle は ワ, こんにちは コンニチワ); `nil` when unknown.
  public var pronunciation: String?
  /// What it is.
  public var kind: Kind
  /// Whether the text has white space before the word.
  public var spaceBefore: Bool

  /// Creates a word.
  public init(
    surface: String, reading: String?, pronunciation: String?, kind: Kind,
    spaceBefore: Bool = false
  ) {
    self.surface = surface
    self.reading = reading
    self.pronunciation = pronunciation
    self.kind = kind
    self.spaceBefore = spaceBefore
  }
}

/// A dictionary that splits Japanese text into words with their readings, so that kanji can
/// be romanized and words spaced (RefrainJapanese's MeCab over IPADIC).
public protocol JapaneseDictionary: Sendable {
  /// The words of `text` in order, covering all of it but its spaces.
  func words(in text: String) -> [JapaneseWord]
}
