import Foundation

@testable import RefrainCore

/// Builds MP4 files byte by byte for the box reader's tests and fuzzing.
enum MP4Build {
  /// `value` as `count` big-endian bytes.
  static func bigEndian(_ value: UInt64, _ count: Int) -> [UInt8] {
    (0..<count).reversed().map { UInt8(truncatingIfNeeded: value >> (8 * UInt64($0))) }
  }

  /// A box type's four bytes (Latin-1, so `©` is A9).
  static func type(_ text: String) -> [UInt8] {
    bigEndian(UInt64(FourCC(stringLiteral: text).rawValue), 4)
  }

  /// A box with a 32-bit size.
  static func box(_ kind: String, _ payload: [UInt8]) -> [UInt8] {
    bigEndian(UInt64(8 + payload.count), 4) + type(kind) + payload
  }

  /// A box with a 64-bit size.
  static func box64(_ kind: String, _ payload: [UInt8]) -> [UInt8] {
    bigEndian(1, 4) + type(kind) + bigEndian(UInt64(16 + payload.count), 8) + payload
  }

  /// A full box: version and flags, then `payload`.
  static func full(_ kind: String, version: UInt8 = 0, _ payload: [UInt8]) -> [UInt8] {
    box(kind, [version, 0, 0, 0] + payload)
  }

  /// An `ilst` item holding one `data` box of `dataType`.
  static func item(_ kind: String, dataType: UInt32 = 1, _ value: [UInt8]) -> [UInt8] {
    box(kind, box("data", bigEndian(UInt64(dataType), 4) + [0, 0, 0, 0] + value))
  }

  /// A UTF-8 text item.
  static func text(_ kind: String, _ value: String) -> [UInt8] {
    item(kind, Array(value.utf8))
  }

  /// A `----` item in the `com.apple.iTunes` namespace.
  static func freeform(_ name: String, _ value: String, mean: String = "com.apple.iTunes")
    -> [UInt8]
  {
    box(
      "----",
      full("mean", Array(mean.utf8)) + full("name", Array(name.utf8))
        + box("data", bigEndian(1, 4) + [0, 0, 0, 0] + Array(value.utf8)))
  }

  /// A `trkn` or `disk` item: number and count.
  static func pair(_ kind: String, _ number: Int, _ count: Int) -> [UInt8] {
    let value: [UInt8] = [0, 0] + bigEndian(UInt64(number), 2) + bigEndian(UInt64(count), 2)
    return item(kind, dataType: 0, value + [0, 0])
  }

  /// A whole M4A file: `ftyp`, `mdat` with each sample's bytes, then `moov`.
  struct Movie {
    var brand = "M4A "
    var movieTimescale: UInt64 = 1000
    var timescale: UInt64 = 44_100
    var mediaDuration: UInt64 = 10 * 1024 + 204
    /// (segment duration, media time), written as version 0 unless `longEdits`.
    var edits: [(UInt64, Int64)] = [(232, 1024)]
    var longEdits = false
    var codec = "mp4a"
    var objectType: UInt8 = 0x40
    var config: [UInt8] = [0x12, 0x10]
    var sizes: [UInt32] = Array(repeating: 100, count: 11)
    /// stsc runs: (first chunk, samples per chunk).
    var chunkRuns: [(UInt32, UInt32)] = [(1, 4)]
    var largeOffsets = false
    var items: [[UInt8]] = []
    /// QuickTime's `meta`, without version and flags.
    var plainMeta = false
    var fragmented = false
    /// Boxes added to `moov` after the sound track.
    var extraMoov: [UInt8] = []

    /// How many samples each chunk holds, following `chunkRuns` until every sample is placed.
    var chunkSizes: [Int] {
      var chunks: [Int] = []
      var placed = 0
      var run = 0
      while placed < sizes.count {
        while run + 1 < chunkRuns.count, Int(chunkRuns[run + 1].0) <= chunks.count + 1 { run += 1 }
        let count = min(max(1, Int(chunkRuns[run].1)), sizes.count - placed)
        chunks.append(count)
        placed += count
      }
      return chunks
    }

    /// The file's bytes.
    func bytes() -> [UInt8] {
      let ftyp = box("ftyp", type(brand) + [0, 0, 2, 0] + type("isom") + type("M4A "))
      // The mdat header comes first, then each sample's bytes (its index, repeated).
      var samples: [UInt8] = []
      for (index, size) in sizes.enumerated() {
        samples += [UInt8](repeating: UInt8(truncatingIfNeeded: index), count: Int(size))
      }
      let mdat = box("mdat", samples)
      var offsets: [UInt64] = []
      var offset = UInt64(ftyp.count + 8)
      var sample = 0
      for count in chunkSizes {
        offsets.append(offset)
        for _ in 0..<count {
          offset += UInt64(sizes[sample])
          sample += 1
        }
      }
      return ftyp + mdat + moov(offsets: offsets)
    }

    private func moov(offsets: [UInt64]) -> [UInt8] {
      let zeros = { (count: Int) -> [UInt8] in [UInt8](repeating: 0, count: count) }
      let mvhd = full("mvhd", zeros(8) + bigEndian(movieTimescale, 4) + zeros(84))
      var editBytes: [UInt8] = bigEndian(UInt64(edits.count), 4)
      for (duration, time) in edits {
        if longEdits {
          editBytes += bigEndian(duration, 8)
          editBytes += bigEndian(UInt64(bitPattern: time), 8)
        } else {
          editBytes += bigEndian(duration, 4)
          editBytes += bigEndian(UInt64(UInt32(truncatingIfNeeded: time)), 4)
        }
        editBytes += [0, 1, 0, 0]
      }
      let elst = full("elst", version: longEdits ? 1 : 0, editBytes)
      var header: [UInt8] = zeros(8) + bigEndian(timescale, 4)
      header += bigEndian(mediaDuration, 4) + [0x55, 0xC4, 0, 0]
      let mdhd = full("mdhd", header)
      let hdlr = full("hdlr", zeros(4) + type("soun") + zeros(13))
      var descriptor: [UInt8] = [3, UInt8(3 + 5 + 13 + 2 + config.count), 0, 1, 0]
      descriptor += [4, UInt8(13 + 2 + config.count), objectType, 0x15] + zeros(11)
      descriptor += [5, UInt8(config.count)] + config + [6, 1, 2]
      let esds = full("esds", descriptor)
      var fields: [UInt8] = [0, 0, 0, 0, 0, 0, 0, 1] + zeros(8) + [0, 2, 0, 16, 0, 0, 0, 0]
      fields += bigEndian(timescale << 16, 4)
      fields += codec == "mp4a" ? esds : box("alac", zeros(4))
      let stsd = full("stsd", bigEndian(1, 4) + box(codec, fields))
      let stts = full(
        "stts", bigEndian(1, 4) + bigEndian(UInt64(sizes.count), 4) + bigEndian(1024, 4))
      var runs: [UInt8] = bigEndian(UInt64(chunkRuns.count), 4)
      for (first, perChunk) in chunkRuns {
        runs += bigEndian(UInt64(first), 4) + bigEndian(UInt64(perChunk), 4) + bigEndian(1, 4)
      }
      let stsc = full("stsc", runs)
      var sizeBytes: [UInt8] = bigEndian(0, 4) + bigEndian(UInt64(sizes.count), 4)
      for size in sizes { sizeBytes += bigEndian(UInt64(size), 4) }
      let stsz = full("stsz", sizeBytes)
      var offsetBytes: [UInt8] = bigEndian(UInt64(offsets.count), 4)
      for offset in offsets { offsetBytes += bigEndian(offset, largeOffsets ? 8 : 4) }
      let stco = full(largeOffsets ? "co64" : "stco", offsetBytes)
      let stbl = box("stbl", stsd + stts + stsc + stsz + stco)
      let mdia = box("mdia", mdhd + hdlr + box("minf", stbl))
      let trak = box("trak", box("edts", elst) + mdia)
      let metaHandler = full("hdlr", zeros(4) + type("mdir") + type("appl") + zeros(9))
      let metaBody: [UInt8] = metaHandler + box("ilst", items.flatMap { $0 })
      let meta = plainMeta ? box("meta", metaBody) : full("meta", metaBody)
      let mvex = fragmented ? box("mvex", full("trex", zeros(20))) : []
      return box("moov", mvhd + trak + extraMoov + mvex + box("udta", meta))
    }
  }
}
