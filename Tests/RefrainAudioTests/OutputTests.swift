import Foundation
import XCTest

@testable import RefrainAudio

/// The silent and file outputs, which tests and benchmarks rely on.
final class OutputTests: XCTestCase {
  // MARK: - NullOutput

  func testNullOutputConsumesAtRealTimePace() throws {
    let output = NullOutput(bufferTarget: 0.05)
    let format = PCMFormat(sampleRate: 8_000, channels: 2)
    try output.open(format)
    let chunk = [UInt8](repeating: 0, count: 800 * format.bytesPerFrame)  // 0.1 s
    let started = MonotonicClock.now
    for _ in 0..<5 { try chunk.withUnsafeBytes { try output.write($0) } }
    let elapsed = MonotonicClock.now - started
    // 0.5 s written with 50 ms allowed ahead: about 0.45 s must pass. Generous bounds.
    XCTAssertGreaterThan(elapsed, 0.35)
    XCTAssertLessThan(elapsed, 1.5)
    XCTAssertLessThanOrEqual(output.latency, 0.16)
  }

  func testNullOutputDropForgetsBufferedAudio() throws {
    let output = NullOutput()
    try output.open(PCMFormat(sampleRate: 8_000, channels: 1))
    let chunk = [UInt8](repeating: 0, count: 1_600)
    try chunk.withUnsafeBytes { try output.write($0) }
    XCTAssertGreaterThan(output.latency, 0)
    output.drop()
    XCTAssertEqual(output.latency, 0)
  }

  // MARK: - WavOutput

  func testWavOutputWritesAValidHeader() throws {
    let path = FileManager.default.temporaryDirectory
      .appendingPathComponent("refrain-wav-\(UUID().uuidString).wav").path
    defer { try? FileManager.default.removeItem(atPath: path) }
    let output = WavOutput(path: path)
    try output.open(PCMFormat(sampleRate: 22_050, channels: 2))
    let pcm = [UInt8](repeating: 7, count: 4_000)
    try pcm.withUnsafeBytes { try output.write($0) }
    output.close()
    let data = try Data(contentsOf: URL(fileURLWithPath: path))
    XCTAssertEqual(data.count, 44 + 4_000)
    XCTAssertEqual(String(decoding: data[0..<4], as: UTF8.self), "RIFF")
    XCTAssertEqual(String(decoding: data[8..<12], as: UTF8.self), "WAVE")
    let rate = data[24..<28].enumerated().reduce(0) { $0 | Int($1.element) << (8 * $1.offset) }
    let size = data[40..<44].enumerated().reduce(0) { $0 | Int($1.element) << (8 * $1.offset) }
    XCTAssertEqual(rate, 22_050)
    XCTAssertEqual(size, 4_000)
  }

  func testWavOutputReportsAnUnwritablePath() {
    let output = WavOutput(path: "/nonexistent-folder/refrain.wav")
    XCTAssertThrowsError(try output.open(PCMFormat(sampleRate: 44_100, channels: 2))) { error in
      XCTAssertTrue("\(error)".contains("/nonexistent-folder/refrain.wav"))
    }
  }
}
