import Foundation
import XCTest

@testable import RefrainCore
@testable import RefrainTags

/// The MP4 box reader on files built byte by byte: box sizes (64-bit, to the end, too
/// small, cut short), the sound track, sample tables, gapless numbers and iTunes tags.
final class MP4BoxReaderTests: XCTestCase {
  private func reader(_ bytes: [UInt8]) -> MP4BoxReader {
    MP4BoxReader(MP4MemorySource(bytes))
  }

  private func movie(_ movie: MP4Build.Movie) throws -> MP4Movie {
    try MP4Movie.read(from: reader(movie.bytes()))
  }

  // MARK: - Boxes

  func testBoxesWithThirtyTwoAndSixtyFourBitSizesAndOneToTheEnd() throws {
    let bytes =
      MP4Build.box("ftyp", Array("M4A ".utf8)) + MP4Build.box64("free", [1, 2, 3])
      + [0, 0, 0, 0] + MP4Build.type("mdat") + [9, 9, 9, 9, 9]
    let boxes = try reader(bytes).topLevelBoxes()
    XCTAssertEqual(boxes.map(\.type), ["ftyp", "free", "mdat"])
    XCTAssertEqual(boxes[1].headerSize, 16)
    XCTAssertEqual(boxes[1].payloadSize, 3)
    XCTAssertEqual(boxes[2].size, 13, "size 0: to the end of the file")
    XCTAssertEqual(try reader(bytes).payload(of: boxes[2], limit: 100), [9, 9, 9, 9, 9])
  }

  func testABoxSmallerThanItsHeaderIsDamaged() {
    let bytes = MP4Build.box("ftyp", Array("M4A ".utf8)) + [0, 0, 0, 5] + MP4Build.type("free")
    XCTAssertThrowsError(try reader(bytes).topLevelBoxes()) { error in
      XCTAssertEqual(error as? MP4Error, .damaged("its free box in file declares 5 bytes"))
    }
  }

  func testTheLastBoxMayRunPastTheEndOfACutFileButAChildMayNotLeaveItsParent() throws {
    let cut = Array(
      MP4Build.box("ftyp", Array("M4A ".utf8))
        + MP4Build.box("mdat", [UInt8](repeating: 1, count: 50))
    ).dropLast(10)
    let boxes = try reader(Array(cut)).topLevelBoxes()
    XCTAssertEqual(boxes.last?.type, "mdat")
    XCTAssertGreaterThan(try XCTUnwrap(boxes.last?.end), UInt64(cut.count))
    XCTAssertThrowsError(try reader(Array(cut)).payload(of: boxes[1], limit: 100)) { error in
      XCTAssertEqual(error as? MP4Error, .cutShort("it ends inside its mdat box"))
    }
    let overflowing = MP4Build.box("moov", [0, 0, 0, 40] + MP4Build.type("trak") + [1, 2, 3])
    let moov = try XCTUnwrap(reader(overflowing).topLevelBoxes().first)
    XCTAssertThrowsError(try reader(overflowing).children(of: moov)) { error in
      XCTAssertEqual(error as? MP4Error, .damaged("its trak box runs past the end of moov"))
    }
  }

  func testAHugeDeclaredSizeNeitherOverflowsNorIsRead() throws {
    let bytes =
      MP4Build.box("ftyp", Array("M4A ".utf8)) + [0, 0, 0, 1] + MP4Build.type("mdat")
      + [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xF8]
    let last = try XCTUnwrap(reader(bytes).topLevelBoxes().last)
    XCTAssertEqual(last.end, .max)
    XCTAssertThrowsError(try reader(bytes).payload(of: last, limit: 1 << 20)) { error in
      guard case .tooLarge(let box, _) = error as? MP4Error else { return XCTFail("\(error)") }
      XCTAssertEqual(box, "mdat")
    }
    XCTAssertThrowsError(try MP4Movie.read(from: reader(bytes))) { error in
      XCTAssertEqual(
        error as? MP4Error,
        .cutShort("its mdat box runs past the end, and there is no moov box"))
    }
  }

  func testFourCCsSpellLatin1() {
    let name: FourCC = "©nam"
    XCTAssertEqual(name.rawValue, 0xA96E_616D)
    XCTAssertEqual(name.description, "©nam")
    XCTAssertEqual(FourCC("ab").description, "ab  ", "short literals are padded, not trapped on")
  }

  // MARK: - The movie

  func testTheSoundTrackItsCodecConfigurationAndEditList() throws {
    let movie = try movie(MP4Build.Movie())
    XCTAssertEqual(movie.brand, "M4A ")
    XCTAssertEqual(movie.timescale, 1000)
    let audio = try XCTUnwrap(movie.audio)
    XCTAssertEqual(audio.codec, .aac)
    XCTAssertEqual(audio.decoderConfig, [0x12, 0x10])
    XCTAssertEqual(audio.channels, 2)
    XCTAssertEqual(audio.sampleRate, 44_100)
    XCTAssertEqual(audio.timescale, 44_100)
    XCTAssertEqual(audio.edits, [MP4Edit(segmentDuration: 232, mediaTime: 1024)])
    XCTAssertFalse(movie.isFragmented)
  }

  func testCodecsOtherThanAACAreNamed() throws {
    XCTAssertEqual(try movie(MP4Build.Movie(codec: "alac")).audio?.codec, .alac)
    XCTAssertEqual(try movie(MP4Build.Movie(objectType: 0x6B)).audio?.codec, .other("MP3"))
    XCTAssertEqual(try movie(MP4Build.Movie(codec: "ac-3")).audio?.codec, .other("AC-3"))
    XCTAssertEqual(try movie(MP4Build.Movie(codec: "samr")).audio?.codec.description, "`samr`")
  }

  func testNotAnMP4AndNoMoov() {
    XCTAssertThrowsError(try MP4Movie.read(from: reader(MP4Build.box("free", [])))) { error in
      XCTAssertEqual(error as? MP4Error, .notMP4)
    }
    let noMoov = MP4Build.box("ftyp", Array("M4A ".utf8)) + MP4Build.box("mdat", [1])
    XCTAssertThrowsError(try MP4Movie.read(from: reader(noMoov))) { error in
      XCTAssertEqual(error as? MP4Error, .damaged("it has no moov box"))
      XCTAssertEqual("\(error)", "the file is damaged: it has no moov box")
    }
  }

  func testADamagedOtherTrackOrDamagedTagsNeverCostTheSound() throws {
    let brokenTrack = MP4Build.box("trak", [0, 0, 0, 99] + MP4Build.type("mdia"))
    let brokenTags = [0, 0, 0, 99] + MP4Build.type("©nam")
    let bytes = MP4Build.Movie(
      items: [MP4Build.text("©ART", "kept?"), brokenTags], extraMoov: brokenTrack
    ).bytes()
    let (movie, tags) = try MP4Metadata.read(from: reader(bytes))
    XCTAssertEqual(movie.audio?.codec, .aac)
    XCTAssertEqual(tags, MP4Metadata(), "an ilst that does not parse is no tags")
    // Without a sound track, the damaged track is what is wrong with the file.
    var onlyBroken = MP4Build.Movie(extraMoov: brokenTrack).bytes()
    let soun = try XCTUnwrap(find(MP4Build.type("soun"), in: onlyBroken)) + 4
    onlyBroken[soun..<soun + 4] = [0x76, 0x69, 0x64, 0x65]  // "vide": no sound track left.
    XCTAssertThrowsError(try MP4Movie.read(from: reader(onlyBroken))) { error in
      XCTAssertEqual(error as? MP4Error, .damaged("its mdia box runs past the end of trak"))
    }
  }

  func testAFragmentedMovieIsMarked() throws {
    XCTAssertTrue(try movie(MP4Build.Movie(fragmented: true)).isFragmented)
  }

  // MARK: - Sample tables

  func testSamplesAreFoundThroughChunksOfDifferentSizes() throws {
    let built = MP4Build.Movie(
      sizes: (0..<11).map { UInt32(10 + $0) }, chunkRuns: [(1, 3), (3, 1), (4, 2)],
      largeOffsets: true)
    let bytes = built.bytes()
    let source = reader(bytes)
    let table = try MP4SampleTable.read(
      try XCTUnwrap(MP4Movie.read(from: source).audio), from: source)
    XCTAssertEqual(table.count, 11)
    XCTAssertEqual(table.maxSampleSize, 20)
    XCTAssertEqual(table.duration, 11 * 1024)
    // Each sample's bytes are its index: find each one both ways.
    var position = table.position(of: 0)
    for sample in 0..<11 {
      XCTAssertEqual(position, table.position(of: sample))
      XCTAssertEqual(table.size(of: sample), 10 + sample)
      let offset = Int(position.offset)
      XCTAssertEqual(Set(bytes[offset..<offset + table.size(of: sample)]), [UInt8(sample)])
      table.advance(&position)
    }
    XCTAssertEqual(table.availableSamples(within: UInt64(bytes.count)), 11)
    XCTAssertEqual(table.availableSamples(within: table.position(of: 4).offset + 13), 4)
  }

  func testSampleTablesThatClaimMoreThanTheyHoldAreDamaged() throws {
    var bytes = MP4Build.Movie().bytes()
    // stsz's count (11) becomes 0x7FFFFFFF: far more sizes than the box holds.
    let stsz = try XCTUnwrap(find(MP4Build.type("stsz"), in: bytes))
    bytes[stsz + 16..<stsz + 20] = [0x7F, 0xFF, 0xFF, 0xFF]
    let source = reader(bytes)
    XCTAssertThrowsError(
      try MP4SampleTable.read(try XCTUnwrap(MP4Movie.read(from: source).audio), from: source)
    ) { error in
      XCTAssertEqual(
        error as? MP4Error,
        .damaged("its stsz box lists 2147483647 samples, more than Refrain reads"))
    }
    let backwards = MP4Build.Movie(chunkRuns: [(1, 4), (1, 2)]).bytes()
    XCTAssertThrowsError(
      try MP4SampleTable.read(
        try XCTUnwrap(MP4Movie.read(from: reader(backwards)).audio), from: reader(backwards))
    ) { error in
      XCTAssertEqual(
        error as? MP4Error, .damaged("its stsc box has a run that does not follow the one before"))
    }
  }

  private func find(_ type: [UInt8], in bytes: [UInt8]) -> Int? {
    (4..<bytes.count - 4).first { bytes[$0..<$0 + 4].elementsEqual(type) }.map { $0 - 4 }
  }

  // MARK: - Gapless

  func testTheEditListGivesTheDelayAndTheExactLengthFromTheMedia() throws {
    // 10 frames of 1024 and one of 204: 1024 of delay and 9,420 samples of sound. The
    // edit's 214 ms (9,437 samples) is as precise as milliseconds allow, so the media's
    // end is taken.
    let built = MP4Build.Movie(mediaDuration: 10 * 1024 + 204, edits: [(214, 1024)])
    let audio = try XCTUnwrap(movie(built).audio)
    XCTAssertEqual(
      audio.gapless(movieTimescale: 1000, outputRate: 44_100, iTunSMPB: nil),
      MP4Gapless(delay: 1024, length: 10 * 1024 + 204 - 1024, source: .editList))
    // At twice the rate (HE-AAC's SBR), everything doubles.
    XCTAssertEqual(
      audio.gapless(movieTimescale: 1000, outputRate: 88_200, iTunSMPB: nil),
      MP4Gapless(delay: 2048, length: 2 * (10 * 1024 + 204 - 1024), source: .editList))
  }

  func testAShorterEditSegmentShortensTheSound() throws {
    let built = MP4Build.Movie(edits: [(100, 2112)], longEdits: true)
    let audio = try XCTUnwrap(movie(built).audio)
    XCTAssertEqual(
      audio.gapless(movieTimescale: 1000, outputRate: 44_100, iTunSMPB: nil),
      MP4Gapless(delay: 2112, length: 4410, source: .editList))
  }

  func testITunSMPBWhenTheEditListTrimsNothing() throws {
    let smpb = " 00000000 00000840 000001CA 0000000000002710 00000000 00000000"
    let untrimmed = try XCTUnwrap(movie(MP4Build.Movie(edits: [(243, 0)])).audio)
    XCTAssertEqual(
      untrimmed.gapless(movieTimescale: 1000, outputRate: 44_100, iTunSMPB: smpb),
      MP4Gapless(delay: 0x840, length: 0x2710, source: .iTunSMPB))
    XCTAssertEqual(
      untrimmed.gapless(movieTimescale: 1000, outputRate: 44_100, iTunSMPB: "garbage"),
      MP4Gapless(delay: 0, length: 10 * 1024 + 204, source: .none))
    let trimmed = try XCTUnwrap(movie(MP4Build.Movie()).audio)
    XCTAssertEqual(
      trimmed.gapless(movieTimescale: 1000, outputRate: 44_100, iTunSMPB: smpb).source, .editList)
    let emptyEditFirst = try XCTUnwrap(movie(MP4Build.Movie(edits: [(50, -1), (200, 1024)])).audio)
    XCTAssertEqual(
      emptyEditFirst.gapless(movieTimescale: 1000, outputRate: 44_100, iTunSMPB: nil).delay, 1024)
  }

  func testTheDurationWithoutDecoding() throws {
    XCTAssertEqual(
      try XCTUnwrap(movie(MP4Build.Movie()).duration(iTunSMPB: nil)), 9420.0 / 44_100,
      accuracy: 0.0001)
    XCTAssertEqual(
      try XCTUnwrap(movie(MP4Build.Movie(edits: [])).duration(iTunSMPB: nil)),
      Double(10 * 1024 + 204) / 44_100, accuracy: 0.0001)
  }

  // MARK: - Tags

  func testTextNumbersFreeformItemsAndTheCover() throws {
    let jpeg: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0, 1, 2, 3]
    let built = MP4Build.Movie(items: [
      MP4Build.text("©nam", "제목"), MP4Build.text("©ART", "Artist"),
      MP4Build.text("aART", "Album Artist"), MP4Build.text("©alb", "Album"),
      MP4Build.text("©day", "1999-05-01T00:00:00Z"), MP4Build.pair("trkn", 7, 12),
      MP4Build.pair("disk", 2, 0), MP4Build.text("©lyr", "[00:01.00]one\n"),
      MP4Build.freeform("ISRC", "USRC17607839"),
      MP4Build.freeform("iTunSMPB", " 00000000 00000840"),
      MP4Build.freeform("ISRC", "NOT-MINE", mean: "org.example"),
      MP4Build.item("covr", dataType: 13, jpeg),
      MP4Build.item("covr", dataType: 14, [0x89, 0x50]),
    ])
    let bytes = built.bytes()
    let tags = try MP4Metadata.read(from: reader(bytes)).tags
    XCTAssertEqual(tags.title, "제목")
    XCTAssertEqual(tags.artist, "Artist")
    XCTAssertEqual(tags.albumArtist, "Album Artist")
    XCTAssertEqual(tags.album, "Album")
    XCTAssertEqual(tags.year, 1999)
    XCTAssertEqual(tags.trackNumber, 7)
    XCTAssertEqual(tags.trackCount, 12)
    XCTAssertEqual(tags.discNumber, 2)
    XCTAssertNil(tags.discCount)
    XCTAssertEqual(tags.lyrics, "[00:01.00]one")
    XCTAssertEqual(tags.isrc, "USRC17607839")
    XCTAssertEqual(tags.iTunSMPB, "00000000 00000840")
    let cover = try XCTUnwrap(tags.cover)
    XCTAssertEqual(cover.dataType, 13)
    XCTAssertEqual(Array(bytes[Int(cover.offset)..<Int(cover.offset + cover.size)]), jpeg)
    XCTAssertEqual(cover.mimeType(of: jpeg), "image/jpeg")
    XCTAssertEqual(
      MP4Picture(offset: 0, size: 2, dataType: 0).mimeType(of: [0x89, 0x50, 0x4E, 0x47]),
      "image/png")
  }

  func testUTF16TextTextTrackNumbersQuickTimeMetaAndADamagedItem() throws {
    let utf16 = Array("노래".data(using: .utf16BigEndian) ?? Data())
    let built = MP4Build.Movie(
      items: [
        MP4Build.box("©ART", [0, 0, 0, 200] + MP4Build.type("data")),  // Runs past its item.
        MP4Build.item("©nam", dataType: 2, utf16),
        MP4Build.item("trkn", dataType: 1, Array("4/9".utf8)),
        MP4Build.item("©alb", dataType: 21, [0, 1]),
      ], plainMeta: true)
    let tags = try MP4Metadata.read(from: reader(built.bytes())).tags
    XCTAssertEqual(tags.title, "노래")
    XCTAssertNil(tags.artist, "the damaged item is skipped")
    XCTAssertEqual(tags.trackNumber, 4)
    XCTAssertEqual(tags.trackCount, 9)
    XCTAssertNil(tags.album, "a number is not text")
  }

  func testTheTagFormatReadsFilesAndIgnoresBrokenOnes() throws {
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("refrain-mp4-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
    let good = folder.appendingPathComponent("good.m4a")
    try Data(
      MP4Build.Movie(items: [
        MP4Build.text("©lyr", "words"), MP4Build.item("covr", dataType: 14, png),
      ]).bytes()
    ).write(to: good)
    let format = try TagFormats.format(of: good)
    XCTAssertEqual(format.name, "MP4")
    XCTAssertEqual(try format.lyrics(in: good), EmbeddedLyrics(text: "words"))
    XCTAssertEqual(
      try format.frontCover(in: good, maxPictureBytes: 100),
      .picture(EmbeddedPicture(mimeType: "image/png", pictureType: 3, data: png)))
    XCTAssertEqual(try format.frontCover(in: good, maxPictureBytes: 7), .tooLarge(bytes: 8))
    let broken = folder.appendingPathComponent("broken.m4a")
    try Data(MP4Build.box("ftyp", Array("M4A ".utf8)) + [0, 0, 0, 3]).write(to: broken)
    XCTAssertEqual(try format.lyrics(in: broken), EmbeddedLyrics())
    XCTAssertEqual(try format.frontCover(in: broken, maxPictureBytes: 100), EmbeddedCover.none)
    XCTAssertThrowsError(try format.lyrics(in: folder.appendingPathComponent("missing.m4a")))
  }
}
