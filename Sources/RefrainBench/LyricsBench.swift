import Foundation
import RefrainCatalog
import RefrainCore
import RefrainTags

/// `refrain-bench lyric-search` and `refrain-bench romanize`: the lyrics features' costs on
/// seeded synthetic data.
///
/// The search figure asks for two neighbouring words of a line picked at random, as a
/// listener remembers a bit of a song; lines mix common words with a vocabulary of 4,000.
enum LyricsBench {
  /// Korean and English words the synthetic lyrics are made of.
  private static let words = [
    "사랑해", "너를", "비가", "내리는", "밤", "우산", "없이", "걸어요", "하늘", "바람", "기억", "그대",
    "눈물", "오늘", "내일", "별빛", "노래", "마음", "love", "rain", "road", "night", "light", "home",
    "heart", "river", "dream", "summer", "winter", "stay",
  ]

  /// A vocabulary like a lyrics collection's: the common words above, and 4,000 more made of
  /// two or three Hangul syllables or Latin letters, drawn less often.
  private static let vocabulary: [String] = {
    var random = SplitMix(state: 3)
    var made: [String] = []
    for index in 0..<4_000 {
      if index % 2 == 0 {
        let length = 2 + Int(random.next() % 2)
        let syllables = (0..<length).map { _ in
          Character(UnicodeScalar(0xAC00 + UInt32(random.next() % 11_172)) ?? "가")
        }
        made.append(String(syllables))
      } else {
        let length = 4 + Int(random.next() % 5)
        made.append(
          String((0..<length).map { _ in Character(UnicodeScalar(97 + UInt8(random.next() % 26))) })
        )
      }
    }
    return made
  }()

  /// A line of 3 to 7 words: one in four from the common words, the rest from the vocabulary.
  private static func line(_ random: inout SplitMix) -> String {
    let count = 3 + Int(random.next() % 5)
    return (0..<count).map { _ in
      random.next() % 4 == 0
        ? words[Int(random.next() % UInt64(words.count))]
        : vocabulary[Int(random.next() % UInt64(vocabulary.count))]
    }.joined(separator: " ")
  }

  /// p50 and p99 of `refrain search --type lyric` over `tracks` tracks of 40 lines each.
  static func search(tracks: Int, queries: Int, asJSON: Bool) throws {
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("refrain-bench-lyrics-\(getpid())")
    try? FileManager.default.removeItem(at: folder)
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let store = try LibraryStore(fileURL: folder.appendingPathComponent("library.sqlite"))
    var files: [(path: String, info: LocalTrackInfo)] = []
    for number in 0..<tracks {
      files.append(
        (
          "/music/\(number / 500)/\(number).mp3",
          LocalTrackInfo(title: "Song \(number)", artist: "Artist \(number % 300)", duration: 200)
        ))
    }
    try LocalLibraryScanner(store: store, tagReader: ID3TagReader(), batchSize: 2000)
      .importTracks(files)
    var random = SplitMix(state: 19)
    var sample: [String] = []
    let indexStart = nowNs()
    for file in files {
      let lines = (0..<40).map { LyricLine(ms: $0 * 4_000, text: line(&random)) }
      try store.lyrics.indexLyrics(lines, synced: true, forLocalTrack: file.path)
      if random.next() % 20 == 0 {
        let picked = lines[Int(random.next() % UInt64(lines.count))]
        // A phrase of two neighbouring words, as a listener remembers one.
        let parts = picked.text.split(separator: " ")
        let start = Int(random.next() % UInt64(max(1, parts.count - 1)))
        sample.append(parts[start..<min(parts.count, start + 2)].joined(separator: " "))
      }
    }
    let indexSeconds = Double(nowNs() - indexStart) / 1e9
    let provider = LocalCatalogProvider(store: store)
    var times: [Double] = []
    for index in 0..<queries {
      let query = sample[index % sample.count]
      let start = nowNs()
      _ = try provider.searchNow(query, kind: .lyric, offset: 0, limit: 20)
      times.append(Double(nowNs() - start) / 1e6)
    }
    times.sort()
    let p50 = times[times.count / 2]
    let p99 = times[min(times.count - 1, Int(Double(times.count) * 0.99))]
    let result: KeyValuePairs<String, Any?> = [
      "tracks": tracks, "lines": tracks * 40, "queries": queries,
      "p50_ms": (p50 * 1000).rounded() / 1000, "p99_ms": (p99 * 1000).rounded() / 1000,
      "index_seconds": (indexSeconds * 100).rounded() / 100,
    ]
    if asJSON {
      print(json(result))
    } else {
      for (key, value) in result { print("\(key): \(value ?? "-")") }
    }
  }

  /// How long romanizing a `lines`-line Korean lyric takes: median of 21 runs, in ms.
  static func romanize(lines count: Int, asJSON: Bool) {
    var random = SplitMix(state: 7)
    let korean = words.prefix(18).map { String($0) }
    let lines = (0..<count).map { _ in
      (0..<5).map { _ in korean[Int(random.next() % UInt64(korean.count))] }.joined(separator: " ")
    }
    _ = Romanizer.romanize(lines[0])  // Tables are built on first use: not part of a frame.
    var times: [Double] = []
    for _ in 0..<21 {
      let start = nowNs()
      var total = 0
      for line in lines { total += Romanizer.romanize(line)?.count ?? 0 }
      times.append(Double(nowNs() - start) / 1e6)
      precondition(total > 0)
    }
    let ms = median(times)
    let result: KeyValuePairs<String, Any?> = [
      "lines": count, "ms": (ms * 1000).rounded() / 1000,
    ]
    if asJSON {
      print(json(result))
    } else {
      for (key, value) in result { print("\(key): \(value ?? "-")") }
    }
  }
}
