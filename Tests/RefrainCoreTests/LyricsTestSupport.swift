import Foundation
import RefrainCore

/// Finds the lyrics fixtures in the repository's `Tests/Fixtures` folder.
enum LyricsFixtures {
  /// The repository root, three levels above this file (`Tests/RefrainCoreTests/…`).
  static let root = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent()
    .deletingLastPathComponent()
    .deletingLastPathComponent()

  /// The URL of a fixture, relative to `Tests/Fixtures` (for example `lrc/vectors.json`).
  static func url(_ relativePath: String) -> URL {
    root.appendingPathComponent("Tests/Fixtures").appendingPathComponent(relativePath)
  }

  /// The bytes of a fixture.
  static func data(_ relativePath: String) throws -> Data {
    try Data(contentsOf: url(relativePath))
  }

  /// The real-world LRC files in `lrc/real`, sorted by name.
  static func realLRCFiles() throws -> [URL] {
    try FileManager.default
      .contentsOfDirectory(at: url("lrc/real"), includingPropertiesForKeys: nil)
      .sorted { $0.lastPathComponent < $1.lastPathComponent }
  }
}

/// A small seeded random number generator (SplitMix64), so property tests repeat exactly.
struct LyricsSeededGenerator: RandomNumberGenerator {
  private var state: UInt64

  /// Creates a generator; the same seed always gives the same sequence.
  init(seed: UInt64) {
    state = seed
  }

  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}

/// Lines reduced to the fields the shared test vectors compare (`endMs` is not in them).
struct LyricsVectorLine: Equatable, Decodable, CustomStringConvertible {
  var ms: Int
  var text: String
  var words: [LyricsVectorWord]?

  /// Reduces a parsed line.
  init(_ line: LyricLine) {
    ms = line.ms
    text = line.text
    words = line.words?.map { LyricsVectorWord(ms: $0.ms, text: $0.text) }
  }

  var description: String {
    let wordList = words.map { " " + $0.map { "<\($0.ms)>\($0.text)" }.joined(separator: " ") }
    return "\(ms) \(text.debugDescription)\(wordList ?? "")"
  }
}

/// A word as the shared test vectors write it.
struct LyricsVectorWord: Equatable, Decodable {
  var ms: Int
  var text: String
}
