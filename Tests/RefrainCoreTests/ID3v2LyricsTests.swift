import Foundation
import XCTest

@testable import RefrainCore
@testable import RefrainTags

/// Tests of the ID3v2 lyrics reader (USLT and SYLT) and of `EmbeddedLyricsSource` over real
/// files.
final class ID3v2LyricsTests: XCTestCase {
  private var folder = URL(fileURLWithPath: "/nonexistent")

  override func setUpWithError() throws {
    folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("refrain-id3-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
  }

  override func tearDown() {
    try? FileManager.default.removeItem(at: folder)
  }

  /// Writes `bytes` to `name` in the test folder and returns its URL.
  private func write(_ name: String, _ bytes: [UInt8]) throws -> URL {
    let url = folder.appendingPathComponent(name)
    try Data(bytes).write(to: url)
    return url
  }

  /// Text each encoding can hold: ISO-8859-1 only has the first 256 scalars.
  private func sample(_ encoding: UInt8) -> String {
    encoding == 0 ? "Café déjà vu\nÿ second line" : "첫 줄\n둘째 줄 ♪ 𝄞"
  }

  // MARK: - USLT

  func test_uslt_v23_eachEncoding() {
    for encoding: UInt8 in 0...3 {
      let tag = TagBytes.tag(
        version: 3,
        frames: [
          TagBytes.frame("TIT2", [encoding] + TagBytes.text("Title", encoding), version: 3),
          TagBytes.frame("USLT", TagBytes.uslt(sample(encoding), encoding: encoding), version: 3),
        ])
      XCTAssertEqual(ID3v2Lyrics(tag: tag).text, sample(encoding), "encoding \(encoding)")
    }
  }

  func test_uslt_v24_eachEncoding_afterAFrameLargerThan127Bytes() {
    // A 300-byte frame first: its syncsafe size differs from the plain big-endian one.
    let picture = TagBytes.frame("APIC", [UInt8](repeating: 0x11, count: 300), version: 4)
    for encoding: UInt8 in 0...3 {
      let tag = TagBytes.tag(
        version: 4,
        frames: [
          picture,
          TagBytes.frame("USLT", TagBytes.uslt(sample(encoding), encoding: encoding), version: 4),
        ])
      XCTAssertEqual(ID3v2Lyrics(tag: tag).text, sample(encoding), "encoding \(encoding)")
    }
  }

  func test_ult_v22() {
    let tag = TagBytes.tag(
      version: 2,
      frames: [
        TagBytes.frame("TT2", [0] + TagBytes.text("Title", 0), version: 2),
        TagBytes.frame("ULT", TagBytes.uslt("[00:01.00]one", encoding: 3), version: 2),
      ])
    XCTAssertEqual(ID3v2Lyrics(tag: tag).text, "[00:01.00]one")
  }

  func test_uslt_firstNonBlankFrameWins_andIsTrimmed() {
    let tag = TagBytes.tag(
      version: 4,
      frames: [
        TagBytes.frame("USLT", TagBytes.uslt(" \n ", encoding: 3), version: 4),
        TagBytes.frame("USLT", TagBytes.uslt("\n first \n", encoding: 3), version: 4),
        TagBytes.frame("USLT", TagBytes.uslt("second", encoding: 3), version: 4),
      ])
    XCTAssertEqual(ID3v2Lyrics(tag: tag).text, "first")
  }

  // MARK: - SYLT

  private let lines = [
    ID3v2Lyrics.SyncedLine(ms: 1000, text: "one"), ID3v2Lyrics.SyncedLine(ms: 2500, text: "둘"),
    ID3v2Lyrics.SyncedLine(ms: 70_000, text: ""),
  ]

  func test_sylt_milliseconds_eachEncodingAndVersion() {
    for version: UInt8 in 3...4 {
      for encoding: UInt8 in 1...3 {
        let tag = TagBytes.tag(
          version: version,
          frames: [
            TagBytes.frame("SYLT", TagBytes.sylt(lines, encoding: encoding), version: version)
          ]
        )
        XCTAssertEqual(ID3v2Lyrics(tag: tag).synced, lines, "v2.\(version) encoding \(encoding)")
      }
    }
    let latin = [ID3v2Lyrics.SyncedLine(ms: 5, text: "ÿes")]
    let tag = TagBytes.tag(
      version: 2, frames: [TagBytes.frame("SLT", TagBytes.sylt(latin, encoding: 0), version: 2)])
    XCTAssertEqual(ID3v2Lyrics(tag: tag).synced, latin)
  }

  func test_sylt_utf16WithoutALaterMark_keepsTheFirstMarksOrder() {
    // Big-endian mark on the descriptor only; the entries carry none.
    var content: [UInt8] = [1] + Array("eng".utf8) + [2, 1, 0xFE, 0xFF, 0, 0]
    content += [0x00, 0x61, 0x00, 0x62, 0, 0] + TagBytes.bigEndian(1234, 4)
    let tag = TagBytes.tag(version: 3, frames: [TagBytes.frame("SYLT", content, version: 3)])
    XCTAssertEqual(ID3v2Lyrics(tag: tag).synced, [.init(ms: 1234, text: "ab")])
  }

  func test_sylt_inMPEGFrames_isSkipped_forALaterOneInMilliseconds() {
    let frames = [ID3v2Lyrics.SyncedLine(ms: 40, text: "frames")]
    let mpeg = TagBytes.frame("SYLT", TagBytes.sylt(frames, encoding: 3, format: 1), version: 4)
    let ms = TagBytes.frame("SYLT", TagBytes.sylt(lines, encoding: 3), version: 4)
    XCTAssertEqual(ID3v2Lyrics(tag: TagBytes.tag(version: 4, frames: [mpeg])).synced, [])
    XCTAssertEqual(ID3v2Lyrics(tag: TagBytes.tag(version: 4, frames: [mpeg, ms])).synced, lines)
  }

  // MARK: - Tag and frame flags

  func test_extendedHeader_isSkipped() {
    let uslt3 = TagBytes.frame("USLT", TagBytes.uslt("v2.3", encoding: 0), version: 3)
    // v2.3: size 10 (without the size field), flags with CRC, padding size, CRC.
    let extended3: [UInt8] = TagBytes.bigEndian(10, 4) + [0x80, 0] + [0, 0, 0, 0] + [1, 2, 3, 4]
    XCTAssertEqual(
      ID3v2Lyrics(tag: TagBytes.tag(version: 3, flags: 0x40, body: extended3 + uslt3)).text,
      "v2.3")
    let uslt4 = TagBytes.frame("USLT", TagBytes.uslt("v2.4", encoding: 3), version: 4)
    // v2.4: size 7 (with the size field), one flag byte: "tag is an update" with no data.
    let extended4: [UInt8] = TagBytes.syncsafe(7) + [1, 0x40, 0]
    XCTAssertEqual(
      ID3v2Lyrics(tag: TagBytes.tag(version: 4, flags: 0x40, body: extended4 + uslt4)).text,
      "v2.4")
  }

  func test_unsynchronisedTag_v23() {
    // UTF-16's mark FF FE and the Latin-1 ÿ (FF) followed by a terminator both need a 00.
    let frames =
      TagBytes.frame("TIT2", [0] + TagBytes.text("ÿ", 0, terminated: true), version: 3)
      + TagBytes.frame("USLT", TagBytes.uslt("ÿ 첫 줄", encoding: 1), version: 3)
      + TagBytes.frame("SYLT", TagBytes.sylt(lines, encoding: 1), version: 3)
    let body = TagBytes.unsynchronised(frames)
    XCTAssertGreaterThan(body.count, frames.count)
    let lyrics = ID3v2Lyrics(tag: TagBytes.tag(version: 3, flags: 0x80, body: body))
    XCTAssertEqual(lyrics.text, "ÿ 첫 줄")
    XCTAssertEqual(lyrics.synced, lines)
  }

  func test_unsynchronisedFrames_v24() {
    let content = TagBytes.uslt("ÿ 첫 줄", encoding: 1)
    let stored = TagBytes.unsynchronised(content)
    // Frame flags: unsynchronised, with a data length indicator (the size before it).
    let flagged = TagBytes.frame(
      "USLT", TagBytes.syncsafe(content.count) + stored, version: 4, flags: [0, 0x03])
    XCTAssertEqual(ID3v2Lyrics(tag: TagBytes.tag(version: 4, frames: [flagged])).text, "ÿ 첫 줄")
    // The tag's flag marks every frame as unsynchronised.
    let plain = TagBytes.frame("USLT", stored, version: 4)
    XCTAssertEqual(
      ID3v2Lyrics(tag: TagBytes.tag(version: 4, flags: 0x80, frames: [plain])).text, "ÿ 첫 줄")
  }

  func test_groupedFrames_areRead_compressedAndEncryptedOnesSkipped() {
    let content = TagBytes.uslt("grouped", encoding: 3)
    let v3 = TagBytes.tag(
      version: 3,
      frames: [
        TagBytes.frame("USLT", [0, 0, 0, 9] + content, version: 3, flags: [0, 0x80]),
        TagBytes.frame("USLT", [7] + content, version: 3, flags: [0, 0x40]),
        TagBytes.frame("USLT", [7] + content, version: 3, flags: [0, 0x20]),
      ])
    XCTAssertEqual(ID3v2Lyrics(tag: v3).text, "grouped")
    let v4 = TagBytes.tag(
      version: 4,
      frames: [
        TagBytes.frame("USLT", TagBytes.uslt("zipped", encoding: 3), version: 4, flags: [0, 0x09]),
        TagBytes.frame("USLT", [7] + content, version: 4, flags: [0, 0x40]),
      ])
    XCTAssertEqual(ID3v2Lyrics(tag: v4).text, "grouped")
  }

  func test_v22CompressedTag_isNotRead() {
    let frame = TagBytes.frame("ULT", TagBytes.uslt("hidden", encoding: 0), version: 2)
    XCTAssertEqual(
      ID3v2Lyrics(tag: TagBytes.tag(version: 2, flags: 0x40, frames: [frame])), .init())
  }

  // MARK: - Broken tags

  func test_truncatedFrame_keepsWhatWasReadBeforeIt() {
    let uslt = TagBytes.frame("USLT", TagBytes.uslt("kept", encoding: 3), version: 4)
    let sylt = TagBytes.frame("SYLT", TagBytes.sylt(lines, encoding: 3), version: 4)
    // The SYLT frame's size runs past the tag.
    let cut = Array(sylt.prefix(sylt.count - 3))
    let lyrics = ID3v2Lyrics(tag: TagBytes.tag(version: 4, body: uslt + cut, padding: 0))
    XCTAssertEqual(lyrics, ID3v2Lyrics(text: "kept"))
    // The bytes end inside the USLT frame, after a whole SYLT.
    let short = Array(TagBytes.tag(version: 4, frames: [sylt, uslt]).dropLast(30))
    XCTAssertEqual(ID3v2Lyrics(tag: short), ID3v2Lyrics(synced: lines))
  }

  func test_truncatedSYLTEntry_keepsTheEntriesBeforeIt() {
    let content = TagBytes.sylt(lines, encoding: 3)
    let tag = TagBytes.tag(
      version: 3, frames: [TagBytes.frame("SYLT", Array(content.dropLast(2)), version: 3)])
    XCTAssertEqual(ID3v2Lyrics(tag: tag).synced, Array(lines.prefix(2)))
  }

  func test_garbageFrame_endsTheParse() {
    let uslt = TagBytes.frame("USLT", TagBytes.uslt("kept", encoding: 3), version: 3)
    let sylt = TagBytes.frame("SYLT", TagBytes.sylt(lines, encoding: 3), version: 3)
    let garbage: [UInt8] = [0x7F, 0xFF, 0x01, 0x80] + [UInt8](repeating: 0xEE, count: 12)
    XCTAssertEqual(
      ID3v2Lyrics(tag: TagBytes.tag(version: 3, body: uslt + garbage + sylt)),
      ID3v2Lyrics(text: "kept"))
  }

  func test_unknownEncodingOrEmptyFrames_areSkipped() {
    var bad = TagBytes.uslt("bad", encoding: 3)
    bad[0] = 7
    let tag = TagBytes.tag(
      version: 4,
      frames: [
        TagBytes.frame("USLT", bad, version: 4), TagBytes.frame("USLT", [], version: 4),
        TagBytes.frame("SYLT", [3, 0x65], version: 4),
        TagBytes.frame("USLT", TagBytes.uslt("good", encoding: 3), version: 4),
      ])
    XCTAssertEqual(ID3v2Lyrics(tag: tag), ID3v2Lyrics(text: "good"))
  }

  func test_notATag_isEmpty() {
    for bytes: [UInt8] in [
      [], Array("ID3".utf8), Array("TAG not at the start".utf8),
      Array("ID3".utf8) + [5, 0, 0, 0, 0, 0, 10],  // ID3v2.5 does not exist.
      Array("ID3".utf8) + [3, 0xFF, 0, 0, 0, 0, 10],
    ] {
      XCTAssertEqual(ID3v2Lyrics(tag: bytes), ID3v2Lyrics(), "\(bytes)")
    }
  }

  /// Random tags and random edits of a real one; a failure names the seed that repeats it.
  func test_seededRandomBytes_neverTrap_andKeepWhatCameBeforeTheDamage() {
    let uslt = TagBytes.frame("USLT", TagBytes.uslt("[00:01.00]kept", encoding: 1), version: 3)
    let rest =
      TagBytes.frame("SYLT", TagBytes.sylt(lines, encoding: 1), version: 3)
      + TagBytes.frame("APIC", [UInt8](repeating: 0xFF, count: 40), version: 3)
    let header = Array(TagBytes.tag(version: 3, body: uslt + rest).prefix(10))
    let ids = ["USLT", "SYLT", "ULT", "SLT", "TIT2"].map { Array($0.utf8) }
    for seed in FuzzScale.seeds(300, from: 0x1D3) {
      var random = SeededRandom(seed: seed)
      // Random bytes behind a valid header, with frame IDs sprinkled in.
      var noise = (0..<Int.random(in: 0...400, using: &random)).map { _ in
        UInt8.random(in: 0...255, using: &random)
      }
      for _ in 0..<Int.random(in: 0...6, using: &random) {
        let at = Int.random(in: 0...noise.count, using: &random)
        noise.insert(contentsOf: ids.randomElement(using: &random) ?? [], at: at)
      }
      let version = UInt8.random(in: 2...4, using: &random)
      let flags = UInt8.random(in: 0...255, using: &random)
      let size = Int.random(in: 0...(noise.count + 20), using: &random)
      let tag = Array("ID3".utf8) + [version, 0, flags] + TagBytes.syncsafe(size) + noise
      let parsed = ID3v2Lyrics(tag: tag)
      XCTAssertEqual(parsed, ID3v2Lyrics(tag: tag), "seed \(seed)")
      XCTAssertFalse(parsed.text?.contains("\u{0}") ?? false, "seed \(seed)")
      XCTAssertTrue(
        parsed.synced.allSatisfy { (0...Int(UInt32.max)).contains($0.ms) }, "seed \(seed)")

      // Damage only the bytes after the USLT frame: its text survives.
      var damaged = rest
      for _ in 0..<Int.random(in: 1...8, using: &random) {
        let index = Int.random(in: 0..<damaged.count, using: &random)
        damaged[index] = UInt8.random(in: 0...255, using: &random)
      }
      damaged.removeLast(Int.random(in: 0...damaged.count, using: &random))
      let edited = ID3v2Lyrics(tag: header + uslt + damaged)
      XCTAssertEqual(edited.text, "[00:01.00]kept", "seed \(seed)")
    }
  }

  // MARK: - Reading files

  func test_read_readsOnlyTheTag() throws {
    // A USLT frame in the audio after an empty tag is not part of the tag.
    let audio = TagBytes.frame("USLT", TagBytes.uslt("audio", encoding: 3), version: 4)
    let url = try write("empty-tag.mp3", TagBytes.tag(version: 4, frames: []) + audio)
    XCTAssertEqual(try ID3v2Lyrics.read(from: url), ID3v2Lyrics())
  }

  func test_read_aTagLongerThanTheFile_keepsWhatIsThere() throws {
    let uslt = TagBytes.frame("USLT", TagBytes.uslt("short file", encoding: 3), version: 4)
    let bytes = Array("ID3".utf8) + [4, 0, 0] + TagBytes.syncsafe(1 << 27) + uslt
    let url = try write("short.mp3", bytes)
    XCTAssertEqual(try ID3v2Lyrics.read(from: url).text, "short file")
  }

  func test_tagFormats_chooseByFirstBytes_notByName() throws {
    let uslt = TagBytes.frame(
      "USLT", TagBytes.uslt("[00:01.00]by its head", encoding: 3), version: 4)
    let tagged = try write("tagged.flac", TagBytes.tag(version: 4, frames: [uslt]))
    let format = try TagFormats.format(of: tagged)
    XCTAssertEqual(format.name, "ID3v2")
    XCTAssertEqual(try format.lyrics(in: tagged).text, "[00:01.00]by its head")
    // A file no format claims is read as ID3v2, and holds nothing.
    let flac = try write("real.mp3", Array("fLaC".utf8) + [0, 0, 0, 34])
    XCTAssertEqual(try TagFormats.format(of: flac).lyrics(in: flac), EmbeddedLyrics())
    XCTAssertThrowsError(try TagFormats.format(of: tagged.appendingPathExtension("gone")))
  }

  func test_read_fileWithoutATag_isEmpty_andAMissingFileThrows() throws {
    let mpeg = try write("plain.mp3", [0xFF, 0xFB, 0x90, 0x64] + [UInt8](repeating: 0, count: 400))
    XCTAssertEqual(try ID3v2Lyrics.read(from: mpeg), ID3v2Lyrics())
    let empty = try write("empty.mp3", [])
    XCTAssertEqual(try ID3v2Lyrics.read(from: empty), ID3v2Lyrics())
    XCTAssertThrowsError(try ID3v2Lyrics.read(from: folder.appendingPathComponent("none.mp3")))
  }

  func test_read_theGeneratedFixtures() throws {
    let fixtures = LyricsFixtures.url("generated")
    let expected = fixtures.appendingPathComponent("tags.json")
    // `make test` and `make unit` generate the fixtures first; without them this fails.
    let json = try JSONSerialization.jsonObject(with: Data(contentsOf: expected))
    let lyrics = try XCTUnwrap(((json as? [String: Any])?["lyrics"] as? [String: Any])?["text"])
    for name in ["tags-v23.mp3", "tags-v24.mp3"] {
      let read = try ID3v2Lyrics.read(from: fixtures.appendingPathComponent(name))
      XCTAssertEqual(read.text, lyrics as? String, name)
    }
  }

  // MARK: - EmbeddedLyricsSource over a file

  private func source(_ name: String, _ frames: [[UInt8]], version: UInt8 = 4)
    async throws -> LyricsResult
  {
    let url = try write(name, TagBytes.tag(version: version, frames: frames) + [0xFF, 0xFB, 0x90])
    return try await EmbeddedLyricsSource().lyrics(for: LyricsQuery(title: "Song", fileURL: url))
  }

  private func uslt(_ text: String) -> [UInt8] {
    TagBytes.frame("USLT", TagBytes.uslt(text, encoding: 3), version: 4)
  }

  private var sylt: [UInt8] {
    TagBytes.frame("SYLT", TagBytes.sylt(lines, encoding: 3), version: 4)
  }

  func test_source_lrcInUSLT_isSynced() async throws {
    let result = try await source("lrc.mp3", [uslt("[00:01.00]첫 줄\n[00:02.50]둘째 줄")])
    let document = try XCTUnwrap(result.document)
    XCTAssertEqual(result.source, .embedded)
    XCTAssertTrue(document.isSynced)
    XCTAssertEqual(document.lines.map(\.ms), [1000, 2500])
    XCTAssertEqual(document.lines.map(\.text), ["첫 줄", "둘째 줄"])
  }

  func test_source_preferenceOrder() async throws {
    let lrcAndSYLT = try await source("both.mp3", [sylt, uslt("[00:09.00]from uslt")])
    XCTAssertEqual(lrcAndSYLT.document?.lines.map(\.text), ["from uslt"])
    let plainAndSYLT = try await source("plain-sylt.mp3", [uslt("plain words"), sylt])
    XCTAssertEqual(plainAndSYLT.document?.isSynced, true)
    XCTAssertEqual(plainAndSYLT.document?.lines.map(\.ms), [1000, 2500, 70_000])
    let plain = try await source("plain.mp3", [uslt("first\nsecond")])
    XCTAssertEqual(plain.document?.isSynced, false)
    XCTAssertEqual(plain.document?.lines.map(\.text), ["first", "second"])
  }

  func test_source_withoutLyrics_orWithoutAFile_isNotFound() async throws {
    let none = try await source("none.mp3", [])
    XCTAssertEqual(none, .notFound(reasons: ["no lyrics in the file's tags"]))
    let missing = try await EmbeddedLyricsSource().lyrics(
      for: LyricsQuery(title: "Gone", fileURL: folder.appendingPathComponent("gone.mp3")))
    XCTAssertEqual(missing, .notFound(reasons: ["the file's tags could not be read"]))
  }

  func test_source_textFromTheCaller_winsOverTheFile() async throws {
    let url = try write("tagged.mp3", TagBytes.tag(version: 4, frames: [uslt("from the file")]))
    let result = try await EmbeddedLyricsSource().lyrics(
      for: LyricsQuery(title: "Song", fileURL: url, embeddedText: "from the caller"))
    XCTAssertEqual(result.document?.lines.map(\.text), ["from the caller"])
  }

  func test_standardResolver_findsTheTagOfATracksFile() async throws {
    let url = try write("track.mp3", TagBytes.tag(version: 4, frames: [sylt]))
    let track = Track(id: "t", location: url, title: "Track")
    let result = await LyricsResolver.standard(cache: nil, online: nil)
      .resolve(LyricsQuery(track: track))
    XCTAssertEqual(result.source, .embedded)
    XCTAssertEqual(result.document?.lines.map(\.text), ["one", "둘", ""])
  }
}

/// Builds ID3v2 tags byte by byte.
private enum TagBytes {
  /// `value` as a 28-bit syncsafe integer.
  static func syncsafe(_ value: Int) -> [UInt8] {
    [21, 14, 7, 0].map { UInt8((value >> $0) & 0x7F) }
  }

  /// `value` as `count` big-endian bytes.
  static func bigEndian(_ value: Int, _ count: Int) -> [UInt8] {
    (0..<count).reversed().map { UInt8((value >> ($0 * 8)) & 0xFF) }
  }

  /// `string` in ID3 text `encoding`, with a terminator when `terminated`.
  static func text(_ string: String, _ encoding: UInt8, terminated: Bool = false) -> [UInt8] {
    var bytes: [UInt8]
    switch encoding {
    case 0: bytes = string.unicodeScalars.map { UInt8(truncatingIfNeeded: $0.value) }
    case 1: bytes = [0xFF, 0xFE] + string.utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
    case 2: bytes = string.utf16.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }
    default: bytes = Array(string.utf8)
    }
    if terminated { bytes += encoding == 1 || encoding == 2 ? [0, 0] : [0] }
    return bytes
  }

  /// A USLT frame's content: encoding, language, a descriptor and `lyrics`.
  static func uslt(_ lyrics: String, encoding: UInt8) -> [UInt8] {
    [encoding] + Array("eng".utf8) + text("descriptor", encoding, terminated: true)
      + text(lyrics, encoding)
  }

  /// A SYLT frame's content for lyrics (content type 1) with timestamps in `format`.
  static func sylt(_ lines: [ID3v2Lyrics.SyncedLine], encoding: UInt8, format: UInt8 = 2)
    -> [UInt8]
  {
    [encoding] + Array("eng".utf8) + [format, 1] + text("", encoding, terminated: true)
      + lines.flatMap { text($0.text, encoding, terminated: true) + bigEndian($0.ms, 4) }
  }

  /// A frame with `id`, the size field `version` uses, and `flags`.
  static func frame(_ id: String, _ content: [UInt8], version: UInt8, flags: [UInt8] = [0, 0])
    -> [UInt8]
  {
    switch version {
    case 2: return Array(id.utf8) + bigEndian(content.count, 3) + content
    case 3: return Array(id.utf8) + bigEndian(content.count, 4) + flags + content
    default: return Array(id.utf8) + syncsafe(content.count) + flags + content
    }
  }

  /// A whole tag: header, `frames` and `padding` zero bytes.
  static func tag(version: UInt8, flags: UInt8 = 0, frames: [[UInt8]], padding: Int = 16)
    -> [UInt8]
  {
    tag(version: version, flags: flags, body: frames.flatMap { $0 }, padding: padding)
  }

  /// A whole tag: header, `body` and `padding` zero bytes.
  static func tag(version: UInt8, flags: UInt8 = 0, body: [UInt8], padding: Int = 16)
    -> [UInt8]
  {
    Array("ID3".utf8) + [version, 0, flags] + syncsafe(body.count + padding) + body
      + [UInt8](repeating: 0, count: padding)
  }

  /// `bytes` unsynchronised: a 00 after every FF that is followed by 00, by E0 or more, or by
  /// nothing.
  static func unsynchronised(_ bytes: [UInt8]) -> [UInt8] {
    var out: [UInt8] = []
    for (index, byte) in bytes.enumerated() {
      out.append(byte)
      let next = index + 1 < bytes.count ? bytes[index + 1] : 0
      if byte == 0xFF, next == 0 || next >= 0xE0 { out.append(0) }
    }
    return out
  }
}
