import ArgumentParser
import Foundation
import RefrainCatalog
import RefrainCore
import RefrainTags

/// `refrain-bench library-stress`: exercises the library store for tests and benchmarks.
///
/// - `--count N`: adds N playlist entries one by one, printing `ok K` after each commit
///   (the crash test kills the process at random and checks every acknowledged entry).
/// - `--tracks N`: indexes N synthetic local tracks without files (for search benchmarks).
/// - `--search-bench`: times local searches inside the process and prints JSON.
struct LibraryStressCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "refrain-bench library-stress",
    abstract: "Exercise the library store (tests, benchmarks).")

  @Option(help: "The library file (default: the user's library).")
  var db: String?

  @Option(help: "Add this many playlist entries, one transaction each.")
  var count: Int?

  @Option(help: "Track IDs of added entries are PREFIX-1, PREFIX-2, …")
  var prefix = "stress"

  @Option(help: "Index this many synthetic local tracks.")
  var tracks: Int?

  @Flag(help: "Time local searches and print the latencies as JSON.")
  var searchBench = false

  @Option(help: "Searches per query kind for --search-bench.")
  var iterations = 400

  func run() throws {
    let url = db.map { URL(fileURLWithPath: $0) } ?? LibraryStore.defaultFileURL()
    let store = try LibraryStore(fileURL: url)
    if let count { try addEntries(count, to: store) }
    if let tracks { try importTracks(tracks, into: store) }
    if searchBench { try benchmarkSearch(store) }
  }

  // MARK: - Crash test

  private func addEntries(_ count: Int, to store: LibraryStore) throws {
    let playlist =
      try store.playlists().first { $0.name == "stress" }
      ?? store.createPlaylist(named: "stress")
    for number in 1...max(1, count) {
      let track = CatalogTrack(
        id: "\(prefix)-\(number)", provider: "stress", title: "Stress entry \(number)",
        artist: "Refrain", duration: Double(number))
      try store.addTracks([track], toPlaylist: playlist.id)
      // Unbuffered, so the test sees exactly the acknowledged writes.
      FileHandle.standardOutput.write(Data("ok \(number)\n".utf8))
    }
  }

  // MARK: - Synthetic library

  private func importTracks(_ count: Int, into store: LibraryStore) throws {
    let start = Date()
    var random = SeededRandom(seed: 42)
    var entries: [(path: String, info: LocalTrackInfo)] = []
    entries.reserveCapacity(count)
    for number in 0..<count {
      let info = SyntheticLibrary.track(number, random: &random)
      entries.append((path: "/synthetic/\(number / 1000)/\(number).mp3", info: info))
    }
    try LocalLibraryScanner(store: store, tagReader: ID3TagReader(), batchSize: 2000)
      .importTracks(entries)
    print(
      JSONOutput.line([
        "tracks": Double(count),
        "seconds": JSONOutput.milliseconds(Date().timeIntervalSince(start)),
      ]))
  }

  // MARK: - Search latency

  private func benchmarkSearch(_ store: LibraryStore) throws {
    let provider = LocalCatalogProvider(store: store)
    let total = try provider.trackCount()
    var random = SeededRandom(seed: 7)
    let kinds: [(String, () -> String)] = [
      ("prefix", { SyntheticLibrary.prefixQuery(random: &random) }),
      ("substring", { SyntheticLibrary.substringQuery(random: &random) }),
      ("short_cjk", { SyntheticLibrary.shortQuery(random: &random) }),
      ("hostile", { SyntheticLibrary.hostileQuery(random: &random) }),
    ]
    var fields: [String: Double] = ["tracks": Double(total)]
    for (name, makeQuery) in kinds {
      let queries = (0..<iterations).map { _ in makeQuery() }
      for query in queries.prefix(20) { _ = try provider.searchNow(query, kind: .track) }
      var times: [Double] = []
      var cpuTimes: [Double] = []
      var hits = 0
      for query in queries {
        let begin = DispatchTime.now().uptimeNanoseconds
        let cpuBegin = Self.threadCPUTime()
        let page = try provider.searchNow(query, kind: .track, limit: 50)
        cpuTimes.append((Self.threadCPUTime() - cpuBegin) * 1e3)
        times.append(Double(DispatchTime.now().uptimeNanoseconds - begin) / 1e6)
        hits += page.items.isEmpty ? 0 : 1
      }
      times.sort()
      cpuTimes.sort()
      fields["\(name)_p50_ms"] = JSONOutput.milliseconds(Self.percentile(times, 0.50))
      fields["\(name)_p99_ms"] = JSONOutput.milliseconds(Self.percentile(times, 0.99))
      fields["\(name)_max_ms"] = JSONOutput.milliseconds(times.last ?? 0)
      fields["\(name)_cpu_p50_ms"] = JSONOutput.milliseconds(Self.percentile(cpuTimes, 0.50))
      fields["\(name)_cpu_p99_ms"] = JSONOutput.milliseconds(Self.percentile(cpuTimes, 0.99))
      fields["\(name)_with_results"] = Double(hits)
    }
    fields["queries_per_kind"] = Double(iterations)
    print(JSONOutput.line(fields))
  }

  /// The CPU time this thread has used, in seconds (preemption by other processes excluded).
  private static func threadCPUTime() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
  }

  /// The value below which `fraction` of the sorted samples fall (nearest rank).
  private static func percentile(_ sorted: [Double], _ fraction: Double) -> Double {
    guard !sorted.isEmpty else { return 0 }
    let rank = Int((fraction * Double(sorted.count)).rounded(.up)) - 1
    return sorted[min(sorted.count - 1, max(0, rank))]
  }
}

/// A made-up but varied library: English, Korean and Japanese titles, artists and albums.
private enum SyntheticLibrary {
  static let english = [
    "love", "night", "midnight", "light", "summer", "river", "dream", "heart", "moon", "rain",
    "fire", "golden", "silver", "morning", "echo", "shadow", "ocean", "story", "highway",
    "winter", "blue", "wild", "forever", "paper", "garden", "city", "dance", "letter", "home",
    "stranger", "window", "season", "memory", "starlight", "thunder", "velvet", "island",
  ]
  static let korean = [
    "사랑", "사랑해", "그리움", "밤하늘", "기억", "눈물", "별빛", "봄날", "여름밤", "바다",
    "우리", "시간", "노래", "하루", "마음", "꿈결", "이별", "첫사랑", "고백", "행복",
  ]
  static let japanese = [
    "ありがとう", "さくら", "夜空", "花火", "恋心", "未来", "約束", "青空", "星屑", "東京",
    "はじまり", "ひかり", "涙", "風の歌",
  ]

  static func pick(_ words: [String], _ random: inout SeededRandom) -> String {
    words[Int(random.next() % UInt64(words.count))]
  }

  static func word(_ random: inout SeededRandom) -> String {
    switch random.next() % 10 {
    case 0...5: return pick(english, &random)
    case 6...8: return pick(korean, &random)
    default: return pick(japanese, &random)
    }
  }

  /// Track `number`: albums of 12 tracks, artists of 4 albums (8,334 albums and 2,084 artists
  /// for 100,000 tracks), titles of two or three words.
  static func track(_ number: Int, random: inout SeededRandom) -> LocalTrackInfo {
    let words = (0..<(2 + Int(random.next() % 2))).map { _ in word(&random) }
    let albumNumber = number / 12
    let artistNumber = albumNumber / 4
    var names = SeededRandom(seed: UInt64(artistNumber))
    let artist = "\(word(&names).capitalized) \(pick(english, &names).capitalized) \(artistNumber)"
    var albumNames = SeededRandom(seed: UInt64(albumNumber) + 1_000_000)
    let album = "\(word(&albumNames).capitalized) \(pick(english, &albumNames)) \(albumNumber)"
    return LocalTrackInfo(
      title: words.joined(separator: " ").capitalized, artist: artist, album: album,
      trackNumber: number % 12 + 1, year: 1970 + artistNumber % 55, duration: 180)
  }

  static func prefixQuery(random: inout SeededRandom) -> String {
    let source = random.next() % 3 == 0 ? pick(korean, &random) : pick(english, &random)
    let length = source.count <= 3 ? max(1, source.count - 1) : 3
    return String(source.prefix(length))
  }

  static func substringQuery(random: inout SeededRandom) -> String {
    let candidates = (english + korean + japanese).filter { $0.count >= 4 }
    let source = Array(pick(candidates, &random))
    let start = 1 + Int(random.next() % UInt64(source.count - 3))
    return String(source[start..<min(source.count, start + 3)])
  }

  static func shortQuery(random: inout SeededRandom) -> String {
    String(pick(korean + japanese, &random).dropFirst().prefix(1 + Int(random.next() % 2)))
  }

  static func hostileQuery(random: inout SeededRandom) -> String {
    let hostile = [
      "\"", "love\"", "NEAR(love night)", "lo*", "*", "(", "a OR b", "\"\"\"", "col:love",
      "^night", "NOT", "AND love", "-love", "'; DROP TABLE local_tracks; --", "%_\\",
    ]
    return pick(hostile, &random)
  }
}
