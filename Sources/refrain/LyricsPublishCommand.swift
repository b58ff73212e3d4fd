import ArgumentParser
import Foundation
import RefrainAudio
import RefrainCatalog
import RefrainConfig
import RefrainCore
import RefrainLRCLIB
import RefrainTags

/// `refrain lyrics publish TRACK`: shares a local track's synced sidecar on LRCLIB.
struct LyricsPublishCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "publish",
    abstract: "Publish a track's synced lyrics (its .lrc sidecar) to LRCLIB, after asking.",
    discussion:
      "It sends the track's title, artist, album and duration with the plain and synced "
      + "lyrics, through LRCLIB's challenge and proof of work; REFRAIN_LRCLIB_URL or "
      + "online.lrclib_url says where.")

  @Argument(help: "The audio file whose sidecar .lrc is published.")
  var track: String

  @Flag(help: "Publish without asking.")
  var yes = false

  func run() throws {
    let environment = ProcessInfo.processInfo.environment
    let configuration = RefrainConfiguration.load(environment: environment).configuration
    guard let base = configuration.lrclibURL(environment: environment) else {
      fail("no lyrics service is configured: set online.lrclib_url or REFRAIN_LRCLIB_URL")
    }
    let file = Track(argument: (track as NSString).expandingTildeInPath)
    let submission: LRCLIBPublisher.Submission
    let summary: String
    do {
      (submission, summary) = try Self.submission(for: file, to: base)
    } catch {
      fail("\(error)")
    }
    if !yes {
      Console.prompt("Publish \(summary)? [y/N] ")
      let answer = readLine()?.trimmingCharacters(in: .whitespaces).lowercased()
      guard answer == "y" || answer == "yes" else {
        Console.error("Not published.")
        return
      }
    }
    let publisher = LRCLIBPublisher(baseURL: base)
    do {
      try waitFor {
        try await publisher.publish(submission) { tried in
          Console.error("publish: proof of work, \(tried) tried")
        }
      }
    } catch {
      fail("\(error)")
    }
    Console.error("Published \(summary).")
  }

  /// What would be published for a local track, and a line saying it; throws why not.
  static func submission(for file: Track, to base: URL) throws(LRCLIBPublisher.Failure) -> (
    LRCLIBPublisher.Submission, String
  ) {
    guard file.location.isFileURL, let sidecar = SidecarLyrics.find(for: file),
      let data = FileManager.default.contents(atPath: sidecar)
    else {
      throw .init("\(file.title) has no .lrc sidecar to publish; time its lyrics first (S)")
    }
    let document = LRCParser.parse(data: data)
    guard document.isSynced, !document.lines.isEmpty else {
      throw .init("\(sidecar) is not synced lyrics; time it first (S in the lyrics view)")
    }
    let info: LocalTrackInfo
    do {
      info = try AudioTagReader(proof: AudioDecoders.proof).readTags(atPath: file.location.path)
    } catch {
      throw .init("cannot read \(file.location.path): \(error)")
    }
    let submission = LRCLIBPublisher.Submission(
      document: document, syncedText: String(decoding: data, as: UTF8.self),
      title: info.title ?? document.tags["ti"] ?? "",
      artist: info.artist ?? document.tags["ar"] ?? "",
      album: info.album ?? document.tags["al"], duration: info.duration ?? 0)
    let summary =
      "“\(submission.title)” by \(submission.artist) "
      + "(\(ClockText.minutesSeconds(submission.duration)), \(document.lines.count) lines) to "
      + (base.host ?? base.absoluteString)
    return (submission, TerminalSanitizer.clean(summary))
  }

  private func fail(_ message: String) -> Never {
    Console.error("refrain lyrics publish: \(message)")
    Foundation.exit(1)
  }
}
