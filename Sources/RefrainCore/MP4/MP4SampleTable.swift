/// A track's sample table (`stsz` or `stz2`, `stsc`, `stco` or `co64`, `stts`): how many
/// samples (for AAC, frames) there are, and where each one is and how large.
///
/// The tables are checked against one another and kept compact: at most 4 bytes a sample,
/// nothing a sample when every sample has one size. Offsets never overflow (an offset past
/// the end of the file is simply not there to read), a table that claims more entries than
/// it holds is refused, and no table lists more than ``maxSamples`` samples.
package struct MP4SampleTable: Sendable {
  /// The most samples read: 1024-sample AAC frames for some 200 hours at 44.1 kHz.
  package static let maxSamples = 1 << 25

  /// How many samples the track has.
  package let count: Int
  /// The track's length in its media time scale (`stts`).
  package let duration: UInt64
  /// The largest sample's size in bytes.
  package let maxSampleSize: Int

  /// Every sample's size when they all have one; 0 when ``sizes`` lists them.
  private let constantSize: UInt32
  /// Each sample's size, unless ``constantSize`` applies.
  private let sizes: [UInt32]
  /// The first sample of each chunk that holds samples.
  private let chunkFirstSample: [Int]
  /// Where each of those chunks starts.
  private let chunkOffsets: [UInt64]

  /// The size of `sample` (which is below ``count``) in bytes.
  package func size(of sample: Int) -> Int {
    Int(constantSize != 0 ? constantSize : sizes[sample])
  }

  /// Where one sample is: its index, its chunk and its offset in the file.
  package struct Position: Sendable, Equatable {
    /// The sample's index.
    package var sample: Int
    /// The index of the chunk that holds it.
    var chunk: Int
    /// Where its bytes start.
    package var offset: UInt64
  }

  /// The position of `sample` (below ``count``): found by a binary search for its chunk,
  /// then the sizes of the samples before it in that chunk.
  package func position(of sample: Int) -> Position {
    var low = 0
    var high = chunkFirstSample.count - 1
    while low < high {
      let middle = (low + high + 1) / 2
      if chunkFirstSample[middle] <= sample { low = middle } else { high = middle - 1 }
    }
    var offset = chunkOffsets[low]
    for earlier in chunkFirstSample[low]..<sample {
      offset = Self.adding(offset, size(of: earlier))
    }
    return Position(sample: sample, chunk: low, offset: offset)
  }

  /// Moves `position` to the next sample.
  package func advance(_ position: inout Position) {
    position.offset = Self.adding(position.offset, size(of: position.sample))
    position.sample += 1
    let next = position.chunk + 1
    if next < chunkFirstSample.count, chunkFirstSample[next] == position.sample {
      position.chunk = next
      position.offset = chunkOffsets[next]
    }
  }

  /// How many samples from the first lie wholly within the first `length` bytes of the
  /// file: fewer than ``count`` when the file is cut short.
  package func availableSamples(within length: UInt64) -> Int {
    guard count > 0 else { return 0 }
    var position = Position(sample: 0, chunk: 0, offset: chunkOffsets[0])
    while position.sample < count {
      let end = position.offset.addingReportingOverflow(UInt64(size(of: position.sample)))
      if end.overflow || end.partialValue > length { break }
      advance(&position)
    }
    return position.sample
  }

  /// `offset + size`, or the largest offset when that overflows (nothing is there).
  private static func adding(_ offset: UInt64, _ size: Int) -> UInt64 {
    let sum = offset.addingReportingOverflow(UInt64(size))
    return sum.overflow ? .max : sum.partialValue
  }

  // MARK: - Reading

  /// Reads the sample table of `track`.
  ///
  /// Throws ``MP4Error/damaged(_:)`` when a table is missing or contradicts itself.
  package static func read(_ track: MP4AudioTrack, from reader: MP4BoxReader) throws(MP4Error)
    -> MP4SampleTable
  {
    let boxes = try reader.children(of: track.sampleTable)
    func table(_ types: FourCC...) throws(MP4Error) -> MP4Fields {
      guard let box = boxes.first(where: { types.contains($0.type) }) else {
        throw .damaged("its sample table has no \(types[0]) box")
      }
      // 8 bytes a sample or chunk at most, plus the header fields.
      return MP4Fields(try reader.payload(of: box, limit: maxSamples * 8 + 64), box: box.type)
    }
    let (constant, sizes, sizeCount) = try readSizes(try table("stsz", "stz2"))
    let offsets = try readChunkOffsets(try table("stco", "co64"))
    let (firsts, covered) = try readChunks(
      try table("stsc"), chunkCount: offsets.count, samples: sizeCount)
    let duration = try readDuration(try table("stts"))
    let count = min(sizeCount, covered)
    let largest = constant != 0 ? Int(constant) : Int(sizes.prefix(count).max() ?? 0)
    return MP4SampleTable(
      count: count, duration: duration, maxSampleSize: largest, constantSize: constant,
      sizes: sizes, chunkFirstSample: firsts, chunkOffsets: Array(offsets.prefix(firsts.count)))
  }

  /// The sizes in `stsz` (a constant or one a sample) or `stz2` (4, 8 or 16 bits a sample).
  private static func readSizes(_ box: MP4Fields) throws(MP4Error) -> (
    constant: UInt32, sizes: [UInt32], count: Int
  ) {
    var fields = box
    try fields.skip(4)
    var constant: UInt32 = 0
    var bits = 32
    if fields.box == "stz2" {
      try fields.skip(3)
      bits = Int(try fields.uint8())
      guard [4, 8, 16].contains(bits) else {
        throw .damaged("its stz2 box has \(bits)-bit sizes")
      }
    } else {
      constant = try fields.uint32()
    }
    let declared = try fields.uint32()
    guard declared <= maxSamples else {
      throw .damaged("its \(fields.box) box lists \(declared) samples, more than Refrain reads")
    }
    let count = Int(declared)
    guard constant == 0 else { return (constant, [], count) }
    guard (count * bits + 7) / 8 <= fields.remaining else {
      throw .damaged("its \(fields.box) box lists more sizes than it holds")
    }
    var sizes: [UInt32] = []
    sizes.reserveCapacity(count)
    var index = 0
    while index < count {
      switch bits {
      case 4:
        let byte = try fields.uint8()
        sizes.append(UInt32(byte >> 4))
        if index + 1 < count { sizes.append(UInt32(byte & 0xF)) }
        index += 2
      default:
        sizes.append(UInt32(try fields.uint(bits / 8)))
        index += 1
      }
    }
    return (0, sizes, count)
  }

  /// The chunk offsets in `stco` (32-bit) or `co64` (64-bit).
  private static func readChunkOffsets(_ box: MP4Fields) throws(MP4Error) -> [UInt64] {
    var fields = box
    try fields.skip(4)
    let width = fields.box == "co64" ? 8 : 4
    let count = Int(try fields.uint32())
    guard count <= fields.remaining / width else {
      throw .damaged("its \(fields.box) box lists more chunks than it holds")
    }
    var offsets: [UInt64] = []
    offsets.reserveCapacity(count)
    for _ in 0..<count { offsets.append(try fields.uint(width)) }
    return offsets
  }

  /// The first sample of each chunk from `stsc`'s runs, for chunks up to `chunkCount` and
  /// until `samples` are placed; and how many samples the chunks hold.
  private static func readChunks(_ box: MP4Fields, chunkCount: Int, samples: Int) throws(MP4Error)
    -> (firsts: [Int], covered: Int)
  {
    var fields = box
    try fields.skip(4)
    let count = Int(try fields.uint32())
    guard count <= fields.remaining / 12 else {
      throw .damaged("its stsc box lists more runs than it holds")
    }
    var runs: [(firstChunk: Int, perChunk: Int)] = []
    for _ in 0..<count {
      let first = Int(try fields.uint32())
      let perChunk = Int(try fields.uint32())
      try fields.skip(4)
      guard first >= 1, first > (runs.last?.firstChunk ?? 0), (1...maxSamples).contains(perChunk)
      else { throw .damaged("its stsc box has a run that does not follow the one before") }
      runs.append((first, perChunk))
    }
    guard runs.first?.firstChunk == 1 || samples == 0 else {
      throw .damaged("its stsc box does not start at the first chunk")
    }
    var firsts: [Int] = []
    var placed = 0
    for (index, run) in runs.enumerated() where placed < samples {
      let end = index + 1 < runs.count ? runs[index + 1].firstChunk - 1 : chunkCount
      var chunk = run.firstChunk - 1
      while chunk < min(end, chunkCount), placed < samples {
        firsts.append(placed)
        placed += run.perChunk
        chunk += 1
      }
    }
    return (firsts, min(placed, samples))
  }

  /// The total of `stts`'s runs (sample count × duration), in the media time scale.
  private static func readDuration(_ box: MP4Fields) throws(MP4Error) -> UInt64 {
    var fields = box
    try fields.skip(4)
    let count = Int(try fields.uint32())
    guard count <= fields.remaining / 8 else {
      throw .damaged("its stts box lists more runs than it holds")
    }
    var total: UInt64 = 0
    for _ in 0..<count {
      let run = UInt64(try fields.uint32()) * UInt64(try fields.uint32())
      let sum = total.addingReportingOverflow(run)
      guard !sum.overflow else { throw .damaged("its stts box adds up to more than it can") }
      total = sum.partialValue
    }
    return total
  }
}
