import Foundation
import XCTest

@testable import RefrainAudio

/// Where `--output wav:PATH` writes: in place for what is not a regular file, through links,
/// and a regular file or a new path replaced whole. A path never changes type.
final class WavDestinationTests: XCTestCase {
  private var folder = ""

  override func setUpWithError() throws {
    folder =
      FileManager.default.temporaryDirectory
      .appendingPathComponent("refrain-wavdest-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
  }

  override func tearDownWithError() throws {
    try? FileManager.default.removeItem(atPath: folder)
  }

  private func write(_ path: String, frames: Int) throws {
    let output = WavOutput(path: path)
    try output.open(PCMFormat(sampleRate: 44_100, channels: 2))
    let pcm = [UInt8](repeating: 1, count: frames * 4)
    try pcm.withUnsafeBytes { try output.write($0) }
    output.close()
  }

  private func dataSize(_ bytes: Data) -> UInt32 {
    bytes[40..<44].enumerated().reduce(UInt32(0)) { $0 | UInt32($1.element) << (8 * $1.offset) }
  }

  func testTheRules() throws {
    XCTAssertEqual(try WavDestination.resolve("-"), .standardOutput)
    XCTAssertEqual(try WavDestination.resolve("/dev/null"), .inPlace(path: "/dev/null"))
    XCTAssertEqual(
      try WavDestination.resolve("\(folder)/new.wav"), .replaced(path: "\(folder)/new.wav"))
    _ = FileManager.default.createFile(atPath: "\(folder)/old.wav", contents: Data("x".utf8))
    XCTAssertEqual(
      try WavDestination.resolve("\(folder)/old.wav"), .replaced(path: "\(folder)/old.wav"))
    XCTAssertEqual(mkfifo("\(folder)/fifo", 0o600), 0)
    XCTAssertEqual(try WavDestination.resolve("\(folder)/fifo"), .inPlace(path: "\(folder)/fifo"))
    XCTAssertThrowsError(try WavDestination.resolve(folder))
  }

  func testLinksAreFollowedToTheirFinalTarget() throws {
    // link → relative link → /dev/null: written in place; link → missing: the target is made.
    symlink("/dev/null", "\(folder)/null-link")
    symlink("null-link", "\(folder)/chain")
    XCTAssertEqual(try WavDestination.resolve("\(folder)/chain"), .inPlace(path: "/dev/null"))
    symlink("sub/missing.wav", "\(folder)/dangling")
    XCTAssertEqual(
      try WavDestination.resolve("\(folder)/dangling"), .replaced(path: "\(folder)/sub/missing.wav")
    )
    symlink("loop-b", "\(folder)/loop-a")
    symlink("loop-a", "\(folder)/loop-b")
    XCTAssertThrowsError(try WavDestination.resolve("\(folder)/loop-a"))
  }

  func testASymlinkStaysALinkAndItsTargetGetsTheAudio() throws {
    _ = FileManager.default.createFile(
      atPath: "\(folder)/target.wav", contents: Data(count: 100_000))
    symlink("target.wav", "\(folder)/link.wav")
    try write("\(folder)/link.wav", frames: 1_000)
    let link = try FileManager.default.destinationOfSymbolicLink(atPath: "\(folder)/link.wav")
    XCTAssertEqual(link, "target.wav")
    let data = try Data(contentsOf: URL(fileURLWithPath: "\(folder)/target.wav"))
    XCTAssertEqual(data.count, 44 + 4_000)
    XCTAssertEqual(dataSize(data), 4_000)
    XCTAssertEqual(
      try FileManager.default.contentsOfDirectory(atPath: folder).sorted(),
      ["link.wav", "target.wav"])
  }

  func testACharacterDeviceIsWrittenInPlace() throws {
    var before = stat()
    XCTAssertEqual(stat("/dev/null", &before), 0)
    try write("/dev/null", frames: 100)
    var after = stat()
    XCTAssertEqual(stat("/dev/null", &after), 0)
    XCTAssertEqual(after.st_mode & S_IFMT, S_IFCHR)
    XCTAssertEqual(after.st_ino, before.st_ino)
  }

  func testAFIFOGetsAStreamingHeaderAndEveryByte() throws {
    let fifo = "\(folder)/fifo"
    XCTAssertEqual(mkfifo(fifo, 0o600), 0)
    let reader = Thread {
      let data = FileHandle(forReadingAtPath: fifo)?.readDataToEndOfFile() ?? Data()
      try? data.write(to: URL(fileURLWithPath: "\(fifo).read"))
    }
    reader.start()
    try write(fifo, frames: 1_000)
    waitUntil("the reader") { FileManager.default.fileExists(atPath: "\(fifo).read") }
    let data = try Data(contentsOf: URL(fileURLWithPath: "\(fifo).read"))
    XCTAssertEqual(data.count, 44 + 4_000)
    guard data.count >= 44 else { return }
    XCTAssertEqual(dataSize(data), UInt32.max)
    var info = stat()
    XCTAssertEqual(lstat(fifo, &info), 0)
    XCTAssertEqual(info.st_mode & S_IFMT, S_IFIFO)
  }

  func testARegularFileIsReplacedOnlyWhenComplete() throws {
    let path = "\(folder)/out.wav"
    _ = FileManager.default.createFile(atPath: path, contents: Data("old".utf8))
    let output = WavOutput(path: path)
    try output.open(PCMFormat(sampleRate: 48_000, channels: 1))
    try [UInt8](repeating: 0, count: 960).withUnsafeBytes { try output.write($0) }
    // Until the output closes, the old file is untouched.
    XCTAssertEqual(FileManager.default.contents(atPath: path), Data("old".utf8))
    output.close()
    let data = try XCTUnwrap(FileManager.default.contents(atPath: path))
    XCTAssertEqual(data.count, 44 + 960)
    XCTAssertEqual(dataSize(data), 960)
    XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder), ["out.wav"])
  }

  func testTheFileHoldsItsFirstFormat() throws {
    let output = WavOutput(path: "\(folder)/held.wav")
    XCTAssertNil(output.heldFormat)
    try output.open(PCMFormat(sampleRate: 44_100, channels: 2))
    XCTAssertEqual(output.heldFormat, PCMFormat(sampleRate: 44_100, channels: 2))
    XCTAssertThrowsError(try output.open(PCMFormat(sampleRate: 48_000, channels: 2)))
    output.close()
  }
}
