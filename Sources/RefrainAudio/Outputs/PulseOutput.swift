import CPulse
import Foundation

/// Plays PCM through a PulseAudio server with a small buffer, so seeks are heard at once.
///
/// The server comes from `PULSE_SERVER` (or the default). The buffer target (`tlength`)
/// defaults to 100 ms (`REFRAIN_BUFFER_MS` changes it). Seeks and pauses flush the buffer,
/// so they are heard at once whatever its size; a larger buffer only delays volume changes
/// and leaves more slack on a busy machine (half the wake-ups of 50 ms).
public final class PulseOutput: AudioOutput {
  public let name = "pulse"
  private var stream: OpaquePointer?
  private var format: AudioFormat?
  private let bufferTarget: Double
  private let sink: String?

  /// The buffer target from `REFRAIN_BUFFER_MS` (20–2000), else the default.
  public static func bufferTarget(
    environment: [String: String] = ProcessInfo.processInfo.environment
  )
    -> Double
  {
    guard let text = environment["REFRAIN_BUFFER_MS"], let ms = Double(text) else { return 0.1 }
    return min(2, max(0.02, ms / 1000))
  }

  /// Creates an output with a buffer target in seconds and an optional sink name.
  public init(bufferTarget: Double = PulseOutput.bufferTarget(), sink: String? = nil) {
    self.bufferTarget = bufferTarget
    self.sink = sink
  }

  deinit { close() }

  /// Checks that a server answers, without keeping a stream open.
  public static func probe() throws {
    let output = PulseOutput()
    try output.open(AudioFormat(sampleRate: 44_100, channels: 2))
    output.close()
  }

  public func open(_ format: AudioFormat) throws {
    if stream != nil, self.format == format { return }
    close()
    var spec = pa_sample_spec(
      format: PA_SAMPLE_S16LE, rate: UInt32(format.sampleRate), channels: UInt8(format.channels))
    var attributes = pa_buffer_attr(
      maxlength: UInt32.max,
      tlength: UInt32(pa_usec_to_bytes(UInt64(bufferTarget * 1_000_000), &spec)),
      prebuf: UInt32.max, minreq: UInt32.max, fragsize: UInt32.max)
    var error: Int32 = 0
    let created = pa_simple_new(
      nil, "Refrain", PA_STREAM_PLAYBACK, sink, "Refrain", &spec, nil, &attributes, &error)
    guard let created else {
      throw AudioError.noAudioServer(detail: Self.message(error))
    }
    stream = created
    self.format = format
  }

  public func write(_ bytes: UnsafeRawBufferPointer) throws {
    guard let stream, let base = bytes.baseAddress, bytes.count > 0 else { return }
    var error: Int32 = 0
    if pa_simple_write(stream, base, bytes.count, &error) < 0 {
      throw AudioError.outputFailed(detail: "PulseAudio: \(Self.message(error))")
    }
  }

  public func drop() {
    guard let stream else { return }
    var error: Int32 = 0
    _ = pa_simple_flush(stream, &error)
  }

  public func drain() throws {
    guard let stream else { return }
    var error: Int32 = 0
    if pa_simple_drain(stream, &error) < 0 {
      throw AudioError.outputFailed(detail: "PulseAudio: \(Self.message(error))")
    }
  }

  public var latency: Double {
    guard let stream else { return 0 }
    var error: Int32 = 0
    let micros = pa_simple_get_latency(stream, &error)
    return micros == UInt64.max ? 0 : Double(micros) / 1_000_000
  }

  /// Closed after a while paused or stopped, so libpulse's thread stops waking.
  public var closesWhenIdle: Bool { true }

  public func close() {
    if let stream { pa_simple_free(stream) }
    stream = nil
    format = nil
  }

  private static func message(_ error: Int32) -> String {
    guard let text = pa_strerror(error) else { return "error \(error)" }
    return String(cString: text)
  }
}
