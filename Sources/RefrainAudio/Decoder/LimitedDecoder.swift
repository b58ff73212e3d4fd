/// A track cut to a length (`refrain play --duration`): it ends exactly `seconds` of frames
/// after where its first read starts (its start, or where a `--start` seek put it), so every
/// output, a file included, gets that many frames and no more.
///
/// Seeks move the window's reads, not its end.
final class LimitedDecoder: AudioDecoder {
  private let inner: any AudioDecoder
  private let seconds: Double
  /// The frame after the last one played, fixed at the first read.
  private var endFrame: Int64?
  private var cut = false

  /// Ends `inner`'s track `seconds` after its first read.
  init(_ inner: any AudioDecoder, seconds: Double) {
    self.inner = inner
    self.seconds = seconds
  }

  var name: String { inner.name }
  var format: PCMFormat { inner.format }
  var duration: Double? { inner.duration }
  var position: Double { inner.position }
  var gaplessTrim: (start: Int, end: Int) { inner.gaplessTrim }
  var isAtEnd: Bool { cut || inner.isAtEnd }

  /// The frame `seconds` into the track, rounded; never a trap, however long.
  private func frame(at seconds: Double) -> Int64 {
    Int64(exactly: (seconds * Double(format.sampleRate)).rounded()) ?? .max
  }

  func read(into buffer: UnsafeMutableRawBufferPointer, shouldStop: () -> Bool) throws -> Int {
    guard !cut else { return 0 }
    let here = frame(at: inner.position)
    let sum = here.addingReportingOverflow(frame(at: seconds))
    let end = endFrame ?? (sum.overflow ? .max : sum.partialValue)
    endFrame = end
    let left = end - here
    guard left > 0 else {
      cut = true
      return 0
    }
    let frames = Int(clamping: min(Int64(buffer.count / format.bytesPerFrame), left))
    return try inner.read(
      into: UnsafeMutableRawBufferPointer(rebasing: buffer[0..<(frames * format.bytesPerFrame)]),
      shouldStop: shouldStop)
  }

  @discardableResult
  func seek(to seconds: Double) throws -> Double {
    cut = false
    return try inner.seek(to: seconds)
  }

  func close() { inner.close() }
}
