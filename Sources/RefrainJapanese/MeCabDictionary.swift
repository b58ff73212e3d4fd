import CMeCab
import Foundation
import RefrainCore

/// Japanese words and their readings from MeCab with a Debian IPADIC dictionary
/// (`mecab-ipadic-utf8`), for ``Romanizer``.
///
/// One tagger, opened on first use (loading the dictionary takes time a start-up should not
/// spend) and used by one thread at a time (a MeCab tagger is not safe to share). IPADIC's
/// features are `品詞,細分類1,細分類2,細分類3,活用型,活用形,原形,読み,発音`: the part of
/// speech gives the word's ``JapaneseWord/Kind``, `読み` its reading and `発音` its
/// pronunciation; a word the dictionary does not know has neither. When MeCab cannot start
/// (no dictionary, or not a UTF-8 one) the whole text is one word without a reading, so
/// only its kana are romanized, as without a dictionary.
public final class MeCabDictionary: JapaneseDictionary, @unchecked Sendable {
  private let lock = NSLock()
  private var tagger: OpaquePointer?
  private var opened = false

  /// A dictionary that opens MeCab with the system's dictionary (`/etc/mecabrc`) when first
  /// asked.
  public init() {}

  deinit { if let tagger { mecab_destroy(tagger) } }

  /// Whether MeCab and a UTF-8 dictionary are there (opening them if not yet open).
  public var isAvailable: Bool { lock.withLock { open() != nil } }

  /// The tagger, opened on the first call; `nil` when MeCab cannot start. Called under `lock`.
  private func open() -> OpaquePointer? {
    if opened { return tagger }
    opened = true
    guard let made = mecab_new2("") else { return nil }
    guard let charset = mecab_dictionary_info(made)?.pointee.charset,
      String(cString: charset).lowercased().replacingOccurrences(of: "-", with: "") == "utf8"
    else {
      mecab_destroy(made)
      return nil
    }
    tagger = made
    return made
  }

  /// The words of `text`, in order.
  public func words(in text: String) -> [JapaneseWord] {
    let bytes = Array(text.utf8)
    return lock.withLock {
      guard let tagger = open() else {
        return [JapaneseWord(surface: text, reading: nil, pronunciation: nil, kind: .other)]
      }
      var words: [JapaneseWord] = []
      bytes.withUnsafeBufferPointer { buffer in
        buffer.withMemoryRebound(to: CChar.self) { chars in
          var node = mecab_sparse_tonode2(tagger, chars.baseAddress, chars.count)
          while let current = node {
            let entry = current.pointee
            node = entry.next.map { UnsafePointer($0) }
            guard entry.stat != UInt8(MECAB_BOS_NODE), entry.stat != UInt8(MECAB_EOS_NODE),
              let start = entry.surface
            else { continue }
            let surface = String(
              decoding: UnsafeRawBufferPointer(start: start, count: Int(entry.length)),
              as: UTF8.self)
            let feature = entry.feature.map { String(cString: $0) } ?? ""
            words.append(
              Self.word(
                surface: surface, feature: feature, spaceBefore: entry.rlength > entry.length))
          }
        }
      }
      return words
    }
  }

  /// The word for one MeCab node with IPADIC's `feature` string.
  static func word(surface: String, feature: String, spaceBefore: Bool) -> JapaneseWord {
    let fields = feature.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
    func field(_ index: Int) -> String? {
      index < fields.count && fields[index] != "*" && !fields[index].isEmpty ? fields[index] : nil
    }
    let kind: JapaneseWord.Kind
    switch (field(0), field(1)) {
    case ("助詞", "接続助詞"?) where ["て", "で", "ば"].contains(surface):
      kind = .conjunctiveParticle
    case ("助詞", _): kind = .particle
    case ("助動詞", _): kind = .auxiliary
    case ("動詞", "接尾"?): kind = .verbSuffix
    case ("動詞", "非自立"?) where surface.hasPrefix("て") || surface.hasPrefix("で"):
      kind = .verbSuffix  // the spoken てる, でる, てく of ている, ていく: one word with the verb
    case ("動詞", _): kind = .verb
    case ("形容詞", _): kind = .adjective
    case ("記号", _): kind = .symbol
    default: kind = .other
    }
    return JapaneseWord(
      surface: surface, reading: field(7), pronunciation: field(8), kind: kind,
      spaceBefore: spaceBefore)
  }
}
