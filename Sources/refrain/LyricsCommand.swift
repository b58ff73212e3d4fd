import ArgumentParser
import Foundation
import RefrainCore
import RefrainJapanese
import RefrainTags

/// `refrain lyrics`: a lyrics file's timeline, and publishing timed lyrics to LRCLIB.
struct LyricsCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "lyrics",
    abstract: "Parse a lyrics file (LRC or FLO song JSON), or publish a track's lyrics.",
    subcommands: [LyricsShowCommand.self, LyricsPublishCommand.self],
    defaultSubcommand: LyricsShowCommand.self)
}

/// `refrain lyrics FILE`: parses a lyrics file and prints its timeline.
struct LyricsShowCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "show",
    abstract:
      "Parse a lyrics file (LRC or FLO song JSON), or an audio file's embedded lyrics, and "
      + "print the timeline.")

  @Argument(help: "An .lrc file, a FLO song JSON file, or an audio file with embedded lyrics.")
  var file: String

  @Flag(help: "Print the parsed document as JSON (times without the offset applied).")
  var json = false

  @Option(help: "Print the line (and word) current at this many seconds, offset applied.")
  var at: Double?

  @Flag(help: "With --json, add each Korean or Japanese line's romanization (`romanized`).")
  var romanize = false

  func run() throws {
    Romanizer.useJapaneseDictionary(MeCabDictionary())
    let document: LyricsDocument
    do {
      switch try LyricsFileReader.read(URL(fileURLWithPath: file)) {
      case .lyricsFile(let found), .embedded(let found, _):
        document = found
      case .noEmbeddedLyrics(let format):
        Console.error("refrain: no embedded lyrics in \(file) (\(format) audio)")
        throw ExitCode(1)
      }
    } catch let error as LyricsError {
      Console.error("refrain: \(error)")
      throw ExitCode(1)
    }
    if let at {
      printLine(of: document, at: at)
    } else if json {
      Console.line(String(decoding: document.jsonData(romanize: romanize), as: UTF8.self))
    } else {
      let text = document.timelineText()
      Console.line(text.isEmpty ? "(no lyrics)" : text)
      if document.skipped > 0 { Console.line("(\(document.skipped) invalid lines skipped)") }
    }
  }

  private func printLine(of document: LyricsDocument, at seconds: Double) {
    let timeline = LyricTimeline(document: document)
    guard let index = timeline.index(at: seconds) else {
      if json {
        Console.line(JSONOutput.line(LineAt(at: seconds)))
      } else {
        Console.line(document.isSynced ? "(before the first line)" : "(plain lyrics: not synced)")
      }
      return
    }
    let line = timeline.lines[index]
    let word = timeline.wordIndex(line: index, at: seconds)
    if json {
      var found = LineAt(at: seconds, index: index, ms: line.ms, text: line.text)
      if let word, let words = line.words {
        found.word = word
        found.wordText = words[word].text
      }
      Console.line(JSONOutput.line(found))
    } else {
      Console.line("\(index): \(line.text)")
      if let word, let words = line.words { Console.line("word \(word): \(words[word].text)") }
    }
  }
}

/// `refrain lyrics FILE --at SEC --json`: the line at a moment (`index` is `null` before
/// the first line), and the word being sung on word-timed lines.
private struct LineAt: Encodable {
  var at: Double
  var index: Int?
  var ms: Int?
  var text: String?
  var word: Int?
  var wordText: String?

  init(at: Double, index: Int? = nil, ms: Int? = nil, text: String? = nil) {
    self.at = JSONOutput.milliseconds(at)
    self.index = index
    self.ms = ms
    self.text = text
  }

  enum CodingKeys: String, CodingKey {
    case at, index, ms, text, word
    case wordText = "word_text"
  }

  func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(at, forKey: .at)
    try container.encode(index, forKey: .index)
    try container.encodeIfPresent(ms, forKey: .ms)
    try container.encodeIfPresent(text, forKey: .text)
    try container.encodeIfPresent(word, forKey: .word)
    try container.encodeIfPresent(wordText, forKey: .wordText)
  }
}
