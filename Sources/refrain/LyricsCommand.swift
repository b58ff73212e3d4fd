import ArgumentParser
import Foundation
import RefrainCore

/// `refrain lyrics`: parses a lyrics file and prints its timeline.
struct LyricsCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "lyrics",
    abstract: "Parse a lyrics file (LRC or FLO song JSON) and print its timeline.")

  @Argument(help: "An .lrc file or a FLO song JSON file.")
  var file: String

  @Flag(help: "Print the parsed document as JSON (times without the offset applied).")
  var json = false

  @Option(help: "Print the line (and word) current at this many seconds, offset applied.")
  var at: Double?

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
      FileHandle.standardOutput.write(document.jsonData())
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
        print(JSONLine([("at", .number(seconds, decimals: 3)), ("index", .null)]).text)
      } else {
        print(document.isSynced ? "(before the first line)" : "(plain lyrics: not synced)")
      }
      return
    }
    let line = timeline.lines[index]
    let word = timeline.wordIndex(line: index, at: seconds)
    if json {
      var fields: [(String, JSONLine.Value)] = [
        ("at", .number(seconds, decimals: 3)), ("index", .integer(index)),
        ("ms", .integer(line.ms)),
        ("text", .string(line.text)),
      ]
      if let word, let words = line.words {
        fields.append(("word", .integer(word)))
        fields.append(("word_text", .string(words[word].text)))
      }
      print(JSONLine(fields).text)
    } else {
      print("\(index): \(line.text)")
      if let word, let words = line.words { print("word \(word): \(words[word].text)") }
    }
  }
}
