import ArgumentParser
import Foundation
import RefrainAudio
import RefrainCatalog
import RefrainConfig
import RefrainCore
import RefrainTags

/// `refrain scan`: indexes music folders into the local library, and names every file with an
/// audio name it leaves out, grouped by reason.
struct ScanCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "scan",
    abstract: "Index music folders (MP3, FLAC, Ogg, Opus, M4A, WAV) into your local library.",
    discussion: """
      Folders are searched recursively for audio files (*.mp3, *.flac, *.ogg, *.oga, \
      *.opus, *.m4a, *.mp4, *.aac, *.wav, and *.dsf, *.dff, *.wma, *.ape, *.wv, *.aif, \
      *.aiff, *.mpc, *.tta, *.tak, which are reported as not played). Every file that is not \
      indexed is listed after the summary, grouped by reason. A rescan reads only new and \
      changed files (by size and modification time) and drops files that are gone. With no \
      folder, the folders scanned before are scanned again. The library is \
      $XDG_DATA_HOME/refrain/library.sqlite.
      """)

  @Argument(help: "Folders to index (default: the folders indexed before).")
  var folders: [String] = []

  @Flag(help: "Print the summary as one JSON object.")
  var json = false

  @Flag(help: "Decode every file to measure exact durations (slower).")
  var exact = false

  @Flag(
    help: ArgumentHelp(
      "Measure ReplayGain for files without gain tags, into the library (files stay unchanged).",
      discussion: "Decodes each file once with libebur128 (ReplayGain 2, -18 LUFS)."))
  var replaygain = false

  func run() throws {
    var targets = folders
    if targets.isEmpty {
      // config.toml's `catalog.music_folders`, then the folders indexed before.
      targets = RefrainConfiguration.load().configuration.musicFolders
    }
    // Folders known now are walked while the library opens; a new library file has nothing
    // to compare, so its walk skips the size and time of every file and reads their tags.
    let libraryFile = LibraryStore.defaultFileURL()
    let tagReader = AudioTagReader(proof: exact ? AudioDecoders.proof : nil)
    // A first scan builds the library under another name and moves it into place at the end.
    let building = !targets.isEmpty && !FileManager.default.fileExists(atPath: libraryFile.path)
    let early =
      targets.isEmpty
      ? nil : ScanWalk(folders: targets, stamps: !building, readingWith: tagReader)
    let store: LibraryStore
    do {
      store =
        building
        ? try LibraryStore(buildingNewFileAt: libraryFile) : try LibraryStore(fileURL: libraryFile)
    } catch {
      Self.fail("\(error)")
    }
    let scanner = LocalLibraryScanner(store: store, tagReader: tagReader)
    if targets.isEmpty {
      targets = (try? scanner.knownFolders()) ?? []
      guard !targets.isEmpty else {
        Self.fail("no folders to scan yet; run `refrain scan DIR…` with your music folders")
      }
    }
    let live = !json && isatty(STDOUT_FILENO) != 0
    var summary: ScanSummary
    do {
      let onProgress: (ScanProgress) -> Void = { progress in if live { Self.show(progress) } }
      if let early {
        summary = try scanner.scan(early, progress: onProgress)
      } else {
        summary = try scanner.scan(folders: targets, progress: onProgress)
      }
      if building, try !store.publish() {
        // Another Refrain created the library meanwhile: index into that one.
        let shared = try LibraryStore(fileURL: libraryFile)
        summary = try LocalLibraryScanner(store: shared, tagReader: tagReader)
          .scan(folders: targets, progress: onProgress)
      }
    } catch {
      if building { store.discard() }
      if live { Self.clearLine() }
      Self.fail("\(error)")
    }
    if live { Self.clearLine() }
    guard !summary.folders.isEmpty else {
      for folder in summary.missingFolders {
        Self.warn("\(folder) is not a folder Refrain can read")
      }
      throw ExitCode(1)
    }
    var gains: ReplayGainScan.Summary?
    if replaygain {
      // A first scan's store was moved into place and closed: open the library anew.
      guard let published = try? LibraryStore(fileURL: libraryFile) else {
        Self.fail("the library \(libraryFile.path) could not be opened to store ReplayGain")
      }
      var measuring = ReplayGainScan(store: published)
      measuring.progress = { done, total in
        if live, total > 0 {
          Console.progress("measuring loudness \(done)/\(total) files")
        }
      }
      measuring.problem = { Self.warn("replaygain: \(TerminalSanitizer.clean($0))") }
      do {
        gains = try measuring.run(folders: summary.folders)
      } catch {
        if live { Self.clearLine() }
        Self.fail("\(error)")
      }
      if live { Self.clearLine() }
    }
    report(summary, gains: gains)
  }

  /// Prints the summary (stdout) and what went wrong (stderr).
  private func report(_ summary: ScanSummary, gains: ReplayGainScan.Summary?) {
    for folder in summary.missingFolders {
      Self.warn(
        "\(folder) is not a folder Refrain can read: skipped, and its tracks indexed before are kept"
      )
    }
    for problem in summary.problems.prefix(20) { Self.warn(TerminalSanitizer.clean(problem)) }
    if json {
      let skipped = summary.skippedByReason.map { reason, files in
        ScanResult.Skipped(
          reason: "\(reason)", count: files.count,
          files: files.map { ScanResult.File(path: $0.path, message: $0.message) })
      }
      Console.line(
        JSONOutput.line(
          ScanResult(
            added: summary.added, updated: summary.updated, removed: summary.removed,
            unchanged: summary.unchanged, failed: summary.failed, files: summary.filesSeen,
            seconds: JSONOutput.milliseconds(summary.elapsed), skipped: skipped,
            unplayable: summary.unplayable.map {
              ScanResult.File(path: $0.path, message: $0.message)
            },
            replaygain: gains)))
    } else {
      Console.line("scanned " + summary.line)
      for line in summary.skippedReport() + summary.unplayableReport() {
        Console.line(TerminalSanitizer.clean(line))
      }
      if let gains {
        Console.line(
          "replaygain: measured \(gains.measured) files (\(gains.albums) albums), "
            + "\(gains.unchanged) unchanged, \(gains.tagged) tagged, \(gains.failed) failed")
      }
    }
  }

  /// Redraws the progress line in place.
  private static func show(_ progress: ScanProgress) {
    var line = "scanning \(progress.filesDone)/\(progress.filesTotal) files"
    line += String(format: "  %.0f files/s", progress.filesPerSecond)
    if let eta = progress.estimatedRemaining, progress.filesDone < progress.filesTotal {
      line += "  ETA " + clock(eta)
    }
    Console.progress(line)
  }

  private static func clearLine() {
    Console.endProgress()
  }

  /// Seconds as m:ss.
  private static func clock(_ seconds: Double) -> String {
    ClockText.minutesSeconds(seconds, rounding: .up)
  }

  private static func warn(_ message: String) {
    Console.error("refrain scan: \(message)")
  }

  private static func fail(_ message: String) -> Never {
    warn(message)
    Foundation.exit(1)
  }
}

/// `refrain scan --json`'s summary.
private struct ScanResult: Encodable {
  /// The files skipped for one reason.
  struct Skipped: Encodable {
    var reason: String
    var count: Int
    var files: [File]
  }

  /// One skipped file and the sentence that says why.
  struct File: Encodable {
    var path: String
    var message: String
  }

  var added: Int
  var updated: Int
  var removed: Int
  var unchanged: Int
  var failed: Int
  var files: Int
  var seconds: Double
  /// Every file with an audio name not in the library, by reason (none: `[]`).
  var skipped: [Skipped]
  /// Files indexed this time that will not play (ALAC in an M4A).
  var unplayable: [File]
  /// What `--replaygain` measured; absent without it.
  var replaygain: ReplayGainScan.Summary?
}
