import Foundation

/// Consumes PCM at real-time pace on the monotonic clock, and plays nothing.
///
/// Position and lyrics behave exactly as with a sound card: a write blocks until the
/// amount buffered ahead of the clock is below the buffer target.
public final class NullOutput: AudioOutput {
  public let name = "null"
  private var format = PCMFormat(sampleRate: 44_100, channels: 2)
  private var framesWritten: Int64 = 0
  private var startTime: Double?
  private let bufferTarget: Double
  private let lock = NSLock()

  /// Creates a silent output that keeps `bufferTarget` seconds ahead of the clock.
  public init(bufferTarget: Double = 0.05) {
    self.bufferTarget = bufferTarget
  }

  public func open(_ format: PCMFormat) throws {
    // An impossible rate would make one write sleep for minutes, deaf to every command.
    guard StreamLimits.allows(format) else {
      throw AudioError.outputFailed(detail: "the null output is not given \(format)")
    }
    lock.withLock {
      self.format = format
      framesWritten = 0
      startTime = nil
    }
  }

  public func write(_ bytes: UnsafeRawBufferPointer) throws {
    let wait: Double = lock.withLock {
      let now = MonotonicClock.now
      let written = Double(framesWritten) / Double(format.sampleRate)
      if let start = startTime {
        // After an underrun the clock restarts from what was written.
        if now - start > written { startTime = now - written }
      } else {
        startTime = now
      }
      framesWritten += Int64(bytes.count / format.bytesPerFrame)
      let ahead = Double(framesWritten) / Double(format.sampleRate) - (now - (startTime ?? now))
      return ahead - bufferTarget
    }
    if wait > 0 { MonotonicClock.sleep(seconds: wait) }
  }

  public func drop() {
    lock.withLock {
      framesWritten = 0
      startTime = nil
    }
  }

  public func drain() throws {
    let remaining = latency
    if remaining > 0 { MonotonicClock.sleep(seconds: remaining) }
  }

  public var latency: Double {
    lock.withLock {
      guard let start = startTime else { return 0 }
      let written = Double(framesWritten) / Double(format.sampleRate)
      return max(0, written - (MonotonicClock.now - start))
    }
  }

  public func close() { drop() }
}
