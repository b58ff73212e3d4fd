// refrain-bench: Refrain's in-process micro-benchmarks, run by scripts/bench.py (make bench).
//
//   refrain-bench lyrics FILE.lrc [--iterations N] [--queries N]
//   refrain-bench decode FILE.mp3 [--iterations N]
//   refrain-bench cover FILE.jpg|png [--columns 30] [--rows 15] [--iterations N]
//   refrain-bench library-stress [--db FILE] [--count N] [--tracks N] [--search-bench]
//   refrain-bench subsonic-search QUERY... [--iterations N] [--warmup N] [--limit N]
//                                          [--transport-only]
//
// Each prints one JSON object on stdout. Times are nanoseconds on CLOCK_MONOTONIC.
// Allocation counts appear when scripts/bench.py preloads its malloc-counting shim
// (it exports `refrain_alloc_stats`); without it they are null.

import Foundation
import RefrainArt
import RefrainAudio
import RefrainCore
import RefrainSubsonic

// MARK: - Timing and allocation counters

func nowNs() -> UInt64 {
  var spec = timespec()
  clock_gettime(CLOCK_MONOTONIC, &spec)
  return UInt64(spec.tv_sec) * 1_000_000_000 + UInt64(spec.tv_nsec)
}

func median(_ values: [Double]) -> Double {
  let sorted = values.sorted()
  let middle = sorted.count / 2
  return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
}

/// The preloaded shim's counters for the calling thread: (allocations, bytes requested).
typealias AllocStats = @convention(c) (UnsafeMutablePointer<UInt64>) -> Void
let allocStatsFunction: AllocStats? = {
  guard let handle = dlopen(nil, RTLD_NOW), let symbol = dlsym(handle, "refrain_alloc_stats") else {
    return nil
  }
  return unsafeBitCast(symbol, to: AllocStats.self)
}()

func allocations() -> (count: UInt64, bytes: UInt64)? {
  guard let allocStatsFunction else { return nil }
  var out: [UInt64] = [0, 0]
  allocStatsFunction(&out)
  return (out[0], out[1])
}

/// Keeps results alive so the optimizer cannot drop the work that produced them.
nonisolated(unsafe) var checksum = 0

// MARK: - JSON output

/// One field of a benchmark's result: a number, a text, a list of numbers, or `null`.
enum Field: Encodable {
  case number(Double)
  case text(String)
  case numbers([Double])
  case none

  init(_ value: Any?) {
    switch value {
    case let text as String: self = .text(text)
    case let number as Int: self = .number(Double(number))
    case let number as UInt64: self = .number(Double(number))
    case let number as Double: self = number.isFinite ? .number(number) : .none
    case let list as [Double]: self = .numbers(list)
    default: self = .none
    }
  }

  func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    switch self {
    case .number(let value): try container.encode(value)
    case .text(let value): try container.encode(value)
    case .numbers(let values): try container.encode(values)
    case .none: try container.encodeNil()
    }
  }
}

/// A benchmark's result as one line of JSON, through Refrain's one encoder.
func json(_ pairs: KeyValuePairs<String, Any?>) -> String {
  JSONOutput.line(Dictionary(pairs.map { ($0.key, Field($0.value)) }, uniquingKeysWith: { $1 }))
}

// MARK: - Arguments

func option(_ name: String, in arguments: inout [String], default value: Int) -> Int {
  guard let index = arguments.firstIndex(of: name), index + 1 < arguments.count,
    let number = Int(arguments[index + 1])
  else { return value }
  arguments.removeSubrange(index...(index + 1))
  return number
}

func usage() -> Never {
  FileHandle.standardError.write(
    Data(
      """
      usage: refrain-bench lyrics FILE.lrc [--iterations N] [--queries N]
             refrain-bench decode FILE.mp3 [--iterations N]
             refrain-bench cover FILE.jpg|png [--columns 30] [--rows 15] [--iterations N]
             refrain-bench library-stress [--db FILE] [--count N] [--tracks N] [--search-bench]
             refrain-bench spotify-match [--local N] [--imported N] [--json]
             refrain-bench lyric-search [--tracks N] [--queries N] [--json]
             refrain-bench romanize [--lines N] [--json]
             refrain-bench subsonic-search QUERY... [--iterations N] [--warmup N] [--limit N]
                                             [--transport-only]

      """.utf8))
  exit(2)
}

// MARK: - Lyrics: parse, timeline build, lookups

/// A small deterministic generator (SplitMix64), so every run asks the same questions.
struct SplitMix {
  var state: UInt64
  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
  mutating func unit() -> Double { Double(next() >> 11) / Double(1 << 53) }
}

/// Nanoseconds per call of `body` over `queries`, median of `rounds` rounds of `passes` passes.
func perCall(_ queries: [Double], passes: Int, rounds: Int, _ body: (Double) -> Int?) -> Double {
  var samples: [Double] = []
  for _ in 0..<rounds {
    var sum = 0
    let start = nowNs()
    for _ in 0..<passes {
      for q in queries { sum &+= body(q) ?? -1 }
    }
    let elapsed = nowNs() - start
    checksum &+= sum
    samples.append(Double(elapsed) / Double(passes * queries.count))
  }
  return median(samples)
}

/// Same, for a `Double?` answer.
func perCall(_ queries: [Double], passes: Int, rounds: Int, _ body: (Double) -> Double?) -> Double {
  perCall(queries, passes: passes, rounds: rounds) { q in body(q).map { Int($0 * 1000) } }
}

func benchLyrics(path: String, iterations: Int, queryCount: Int) {
  guard let data = FileManager.default.contents(atPath: path) else {
    FileHandle.standardError.write(Data("refrain-bench: cannot read \(path)\n".utf8))
    exit(1)
  }
  let text = String(decoding: data, as: UTF8.self)
  let fileLines = text.split(separator: "\n", omittingEmptySubsequences: false).count

  // Warm up (page in code, grow the heap), then time each parse on its own.
  var document = LRCParser.parse(text)
  var parseMs: [Double] = []
  for _ in 0..<iterations {
    let start = nowNs()
    let parsed = LRCParser.parse(text)
    parseMs.append(Double(nowNs() - start) / 1e6)
    checksum &+= parsed.lines.count
    document = parsed
  }

  // Allocations of one parse (the shim counts per thread, so only this thread's are seen).
  var parseAllocs: (count: UInt64, bytes: UInt64)?
  if let before = allocations() {
    let parsed = LRCParser.parse(text)
    if let after = allocations() {
      parseAllocs = (after.count - before.count, after.bytes - before.bytes)
    }
    checksum &+= parsed.lines.count
  }

  var buildMs: [Double] = []
  for _ in 0..<iterations {
    let start = nowNs()
    let built = LyricTimeline(document: document, userOffsetMs: 0)
    buildMs.append(Double(nowNs() - start) / 1e6)
    checksum &+= built.count
  }
  // A constant, as the main loop holds it: the lookups then measure the search alone.
  let timeline = LyricTimeline(document: document)
  var lookupAllocs: (count: UInt64, bytes: UInt64)?

  // Queries: uniformly random positions over the song (plus a little before and after),
  // and positions in playback order (a 10 ms tick from start to end).
  let first = Double(document.lines.first?.ms ?? 0) / 1000
  let last = Double(document.lines.last?.ms ?? 0) / 1000
  var random = SplitMix(state: 2024)
  let randomQueries = (0..<queryCount).map { _ in (first - 1) + random.unit() * (last - first + 2) }
  let step = (last - first + 2) / Double(queryCount)
  let orderedQueries = (0..<queryCount).map { (first - 1) + Double($0) * step }
  let passes = max(1, 1_000_000 / queryCount)
  let rounds = 9

  if let before = allocations() {
    for q in randomQueries.prefix(1000) {
      checksum &+= timeline.index(at: q) ?? 0
      checksum &+= Int(timeline.nextChange(after: q) ?? 0)
    }
    if let after = allocations() {
      lookupAllocs = (after.count - before.count, after.bytes - before.bytes)
    }
  }

  let indexRandom = perCall(randomQueries, passes: passes, rounds: rounds) {
    timeline.index(at: $0)
  }
  let indexOrdered = perCall(orderedQueries, passes: passes, rounds: rounds) {
    timeline.index(at: $0)
  }
  let nextRandom = perCall(randomQueries, passes: passes, rounds: rounds) {
    timeline.nextChange(after: $0)
  }
  let nextOrdered = perCall(orderedQueries, passes: passes, rounds: rounds) {
    timeline.nextChange(after: $0)
  }
  // A reference: a bare binary search over the same line times, in the same loop.
  let times = timeline.lines.map { Double($0.ms - timeline.offsetMs) / 1000 }
  let bareRandom = perCall(randomQueries, passes: passes, rounds: rounds) { q -> Int? in
    var low = 0
    var high = times.count
    while low < high {
      let middle = (low + high) / 2
      if times[middle] <= q { low = middle + 1 } else { high = middle }
    }
    return low > 0 ? low - 1 : nil
  }
  // The loop alone (read a query, add it up), to show what the per-call figures include.
  let loopOnly = perCall(randomQueries, passes: passes, rounds: rounds) { Int($0) }

  let words = document.lines.reduce(0) { $0 + ($1.words?.count ?? 0) }
  print(
    json(
      [
        "benchmark": "lyrics",
        "file": path,
        "file_bytes": data.count,
        "file_lines": fileLines,
        "timeline_lines": document.lines.count,
        "timed_words": words,
        "skipped": document.skipped,
        "iterations": iterations,
        "parse_ms_median": median(parseMs),
        "parse_ms_min": parseMs.min(),
        "parse_ms_max": parseMs.max(),
        "parse_allocations": parseAllocs.map { Int($0.count) },
        "parse_allocated_bytes": parseAllocs.map { Int($0.bytes) },
        "timeline_build_ms_median": median(buildMs),
        "lookup_allocations_per_1000": lookupAllocs.map { Int($0.count) },
        "calls_per_round": passes * queryCount,
        "rounds": rounds,
        "index_ns_random": indexRandom,
        "index_ns_ordered": indexOrdered,
        "next_change_ns_random": nextRandom,
        "next_change_ns_ordered": nextOrdered,
        "loop_overhead_ns": loopOnly,
        "bare_search_ns_random": bareRandom,
        "checksum": checksum,
      ] as KeyValuePairs<String, Any?>))
}

// MARK: - Decode: libmpg123 through MP3Decoder, no output

func benchDecode(path: String, iterations: Int) {
  var wallMs: [Double] = []
  var openMs: [Double] = []
  var seconds = 0.0
  var buffer = [UInt8](repeating: 0, count: 4608)  // the player engine's chunk size
  for _ in 0..<(iterations + 1) {
    let start = nowNs()
    let decoder: MP3Decoder
    do {
      decoder = try MP3Decoder(path: path)
    } catch {
      FileHandle.standardError.write(Data("refrain-bench: \(error)\n".utf8))
      exit(1)
    }
    let opened = nowNs()
    var bytes = 0
    while true {
      let count = (try? buffer.withUnsafeMutableBytes { try decoder.read(into: $0) }) ?? 0
      if count == 0 { break }
      bytes += count
    }
    let end = nowNs()
    seconds = Double(bytes / decoder.format.bytesPerFrame) / Double(decoder.format.sampleRate)
    checksum &+= Int(buffer[0])
    wallMs.append(Double(end - start) / 1e6)
    openMs.append(Double(opened - start) / 1e6)
  }
  // The first round only warms up (page cache, code, heap).
  wallMs.removeFirst()
  openMs.removeFirst()
  let decodeMs = median(wallMs)
  print(
    json(
      [
        "benchmark": "decode",
        "file": path,
        "audio_seconds": seconds,
        "iterations": iterations,
        "ms_median": decodeMs,
        "ms_min": wallMs.min(),
        "open_scan_ms_median": median(openMs),
        "realtime_multiple": seconds / (decodeMs / 1000),
        "checksum": checksum,
      ] as KeyValuePairs<String, Any?>))
}

// MARK: - Cover: decode, scale, encode 24-bit half blocks

func benchCover(path: String, box: CellSize, iterations: Int) {
  guard let data = FileManager.default.contents(atPath: path) else {
    FileHandle.standardError.write(Data("refrain-bench: cannot read \(path)\n".utf8))
    exit(1)
  }
  var totalNs: [Double] = []
  var decodeNs: [Double] = []
  var scaleNs: [Double] = []
  var encodeNs: [Double] = []
  var decoded = (width: 0, height: 0)
  var cells = CellSize(columns: 0, rows: 0)
  var outputBytes = 0
  // With more than one iteration, the first only warms up (page cache, code, heap).
  let rounds = iterations > 1 ? iterations + 1 : 1
  for _ in 0..<rounds {
    let start = nowNs()
    let image: RGBImage
    do {
      image = try ImageDecoder.decode(data, box: box.halfBlockPixels)
    } catch {
      FileHandle.standardError.write(Data("refrain-bench: \(error)\n".utf8))
      exit(1)
    }
    let decodedAt = nowNs()
    let cover = HalfBlockCover(fitting: image, in: box)
    let scaledAt = nowNs()
    let rows = cover.encodedRows(.trueColor)
    let end = nowNs()
    decoded = (image.width, image.height)
    cells = CellSize(columns: cover.columns, rows: cover.rows)
    outputBytes = rows.reduce(0) { $0 + $1.utf8.count }
    checksum &+= outputBytes
    totalNs.append(Double(end - start))
    decodeNs.append(Double(decodedAt - start))
    scaleNs.append(Double(scaledAt - decodedAt))
    encodeNs.append(Double(end - scaledAt))
  }
  if rounds > 1 {
    totalNs.removeFirst()
    decodeNs.removeFirst()
    scaleNs.removeFirst()
    encodeNs.removeFirst()
  }
  print(
    json(
      [
        "benchmark": "cover",
        "file": path,
        "file_bytes": data.count,
        "decoded_width": decoded.width,
        "decoded_height": decoded.height,
        "columns": cells.columns,
        "rows": cells.rows,
        "output_bytes": outputBytes,
        "iterations": iterations,
        "ns_median": median(totalNs),
        "ns_min": totalNs.min(),
        "decode_ns_median": median(decodeNs),
        "scale_ns_median": median(scaleNs),
        "encode_ns_median": median(encodeNs),
        "checksum": checksum,
      ] as KeyValuePairs<String, Any?>))
}

// MARK: - Main

var arguments = Array(CommandLine.arguments.dropFirst())
guard let mode = arguments.first else { usage() }
arguments.removeFirst()
switch mode {
case "lyrics":
  let iterations = option("--iterations", in: &arguments, default: 21)
  let queries = option("--queries", in: &arguments, default: 4096)
  guard let path = arguments.first else { usage() }
  benchLyrics(path: path, iterations: max(1, iterations), queryCount: max(1, queries))
case "decode":
  let iterations = option("--iterations", in: &arguments, default: 9)
  guard let path = arguments.first else { usage() }
  benchDecode(path: path, iterations: max(1, iterations))
case "cover":
  let iterations = option("--iterations", in: &arguments, default: 21)
  let columns = option("--columns", in: &arguments, default: 30)
  let rows = option("--rows", in: &arguments, default: 15)
  guard let path = arguments.first else { usage() }
  benchCover(
    path: path, box: CellSize(columns: max(1, columns), rows: max(1, rows)),
    iterations: max(1, iterations))
case "library-stress":
  LibraryStressCommand.main(arguments)
case "lyric-search":
  let tracks = option("--tracks", in: &arguments, default: 10_000)
  let queries = option("--queries", in: &arguments, default: 1_000)
  do {
    try LyricsBench.search(tracks: tracks, queries: queries, asJSON: arguments.contains("--json"))
  } catch {
    FileHandle.standardError.write(Data("refrain-bench lyric-search: \(error)\n".utf8))
    exit(1)
  }
case "romanize":
  let lines = option("--lines", in: &arguments, default: 100)
  LyricsBench.romanize(lines: lines, asJSON: arguments.contains("--json"))
case "spotify-match":
  let local = option("--local", in: &arguments, default: 10_000)
  let imported = option("--imported", in: &arguments, default: 10_000)
  do {
    try SpotifyMatchBench.run(
      local: local, imported: imported, asJSON: arguments.contains("--json"))
  } catch {
    FileHandle.standardError.write(Data("refrain-bench spotify-match: \(error)\n".utf8))
    exit(1)
  }
case "subsonic-search":
  let iterations = option("--iterations", in: &arguments, default: 500)
  let warmup = option("--warmup", in: &arguments, default: 20)
  let limit = option("--limit", in: &arguments, default: 20)
  let transportOnly = arguments.contains("--transport-only")
  arguments.removeAll { $0 == "--transport-only" }
  var queries: [String] = []
  var index = 0
  while index < arguments.count {
    if arguments[index].hasPrefix("--") {
      index += 2
    } else {
      queries.append(arguments[index])
      index += 1
    }
  }
  guard !queries.isEmpty else { usage() }
  SubsonicSearchBench.run(
    queries: queries, iterations: max(1, iterations), warmup: max(0, warmup), limit: max(1, limit),
    transportOnly: transportOnly)
default:
  usage()
}
