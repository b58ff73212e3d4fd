import ArgumentParser
import Foundation
import RefrainCore

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
    abstract: "Parse a lyrics file (LRC or FLO song JSON) and print its timeline.")

  @Argument(help: "An .lrc file or a FLO song JSON file.")
  var file: String

  @Flag(help: "Print the parsed document as JSON (times without the offset applied).")
  var json = false

  @Option(help: "Print the line (and word) current at this many seconds, offset applied.")
  var at: Double?

  @Flag(help: "With --json, add each Korean or Japanese line's romanization (`romanized`).")
  var romanize = false

  func run() throws {
    let document: LyricsDocument
    do {
      document = try LyricsDocument.load(from: URL(fileURLWithPath: file))
    } catch {
      FileHandle.standardError.write(Data("refrain: \(error)\n".utf8))
      throw ExitCode(1)
    }
    if let at {
      printLine(of: document, at: at)
    } else if json {
      FileHandle.standardOutput.write(document.jsonData(romanize: romanize))
      FileHandle.standardOutput.write(Data("\n".utf8))
    } else {
      let text = document.timelineText()
      print(text.isEmpty ? "(no lyrics)" : text)
      if document.skipped > 0 { print("(\(document.skipped) invalid lines skipped)") }
    }
  }

  private func printLine(of document: LyricsDocument, at seconds: Double) {
    let timeline = LyricTimeline(document: document)
    guard let index = timeline.index(at: seconds) else {
      if json {
        print(JSONOutput.line(LineAt(at: seconds)))
      } else {
        print(document.isSynced ? "(before the first line)" : "(plain lyrics: not synced)")
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
      print(JSONOutput.line(found))
    } else {
      print("\(index): \(line.text)")
      if let word, let words = line.words { print("word \(word): \(words[word].text)") }
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
