import CPulse
import Foundation

/// Plays PCM through a PulseAudio server, keeping a deep queue there that seeks flush.
///
/// The server comes from `PULSE_SERVER` (or the default). The player keeps about
/// ``bufferTarget`` seconds queued on the server (1 s by default; `REFRAIN_BUFFER_MS` or
/// `audio.buffer_ms` change it) and sleeps between refills, so playing costs a few
/// wake-ups a second. Seeks, pauses and volume changes flush the queue, so they are heard
/// after the sink's own latency (about 40 ms), whatever the queue's depth.
///
/// This is libpulse's asynchronous API on its threaded main loop: `pa_simple` cannot say
/// how much the server wants, so a deep queue there would block the player thread.
public final class PulseOutput: AudioOutput {
  public let name = "pulse"
  /// Seconds of audio the player keeps queued on the server.
  public let bufferTarget: Double
  private let sink: String?
  private var format: PCMFormat?
  private var mainloop: OpaquePointer?
  private var context: OpaquePointer?
  private var stream: OpaquePointer?

  /// The latency asked of the sink itself: what a flush cannot take back on a sink that
  /// cannot rewind, and the server's request interval.
  public static let sinkLatency = 0.04

  /// Creates an output with a buffer target in seconds and an optional sink name.
  public init(bufferTarget: Double = 1, sink: String? = nil) {
    self.bufferTarget = bufferTarget
    self.sink = sink
  }

  deinit { close() }

  /// Checks that a server answers, without keeping a stream open.
  public static func probe() throws {
    let output = PulseOutput()
    try output.open(PCMFormat(sampleRate: 44_100, channels: 2))
    output.close()
  }

  public var bufferAhead: Double? { bufferTarget }

  public func open(_ format: PCMFormat) throws {
    guard StreamLimits.allows(format) else {
      throw AudioError.outputFailed(detail: "PulseAudio is not given \(format)")
    }
    if let mainloop, self.format == format {
      let good = locked(mainloop) { streamIsReady }
      if good { return }
    }
    close()
    guard let loop = pa_threaded_mainloop_new() else {
      throw AudioError.noAudioServer(detail: "libpulse could not start its main loop")
    }
    mainloop = loop
    let userdata = UnsafeMutableRawPointer(loop)
    guard let ctx = pa_context_new(pa_threaded_mainloop_get_api(loop), "Refrain") else {
      close()
      throw AudioError.noAudioServer(detail: "libpulse could not create a context")
    }
    context = ctx
    pa_context_set_state_callback(ctx, { _, data in signalLoop(data) }, userdata)
    pa_threaded_mainloop_lock(loop)
    var failure: String?
    if pa_context_connect(ctx, nil, PA_CONTEXT_NOFLAGS, nil) < 0
      || pa_threaded_mainloop_start(loop) < 0
    {
      failure = errorText()
    } else {
      failure = waitForContext() ?? connectStream(format)
    }
    pa_threaded_mainloop_unlock(loop)
    if let failure {
      close()
      throw AudioError.noAudioServer(detail: failure)
    }
    self.format = format
  }

  public var writableBytes: Int? {
    guard let mainloop else { return nil }
    return locked(mainloop) {
      guard let stream, streamIsReady else { return nil }
      return max(0, pa_stream_writable_size(stream))
    }
  }

  /// Writes all of `bytes`, waiting for the server to ask for more when its queue is full.
  public func write(_ bytes: UnsafeRawBufferPointer) throws {
    guard let mainloop, var base = bytes.baseAddress, bytes.count > 0 else { return }
    var remaining = bytes.count
    let failure: String? = locked(mainloop) {
      while remaining > 0 {
        guard let stream, streamIsReady else { return errorText() }
        let writable = pa_stream_writable_size(stream)
        if writable <= 0 {
          pa_threaded_mainloop_wait(mainloop)
          continue
        }
        let count = min(writable, remaining)
        if pa_stream_write(stream, base, count, nil, 0, PA_SEEK_RELATIVE) < 0 {
          return errorText()
        }
        base += count
        remaining -= count
      }
      return nil
    }
    if let failure { throw AudioError.outputFailed(detail: "PulseAudio: \(failure)") }
  }

  /// Discards the queue, waiting until the server has done so, so the next write is heard next.
  public func drop() {
    guard let mainloop else { return }
    locked(mainloop) {
      guard let stream, streamIsReady else { return }
      finish(
        pa_stream_flush(
          stream, { _, _, data in signalLoop(data) }, UnsafeMutableRawPointer(mainloop)))
    }
  }

  /// Flushes the queue and writes `bytes` right behind the flush, before its answer: the
  /// server applies both before the sink renders again, so the new audio follows the old with
  /// no block of silence between (waiting for the flush first left one about one seek in
  /// twenty on a null sink). The queue is empty then, so `bytes` may exceed what was asked.
  public func replaceQueue(with bytes: UnsafeRawBufferPointer) throws {
    guard let mainloop, let base = bytes.baseAddress, bytes.count > 0 else {
      drop()
      return
    }
    let failure: String? = locked(mainloop) {
      guard let stream, streamIsReady else { return errorText() }
      let flush = pa_stream_flush(
        stream, { _, _, data in signalLoop(data) }, UnsafeMutableRawPointer(mainloop))
      let written = pa_stream_write(stream, base, bytes.count, nil, 0, PA_SEEK_RELATIVE)
      finish(flush)
      return written < 0 ? errorText() : nil
    }
    if let failure { throw AudioError.outputFailed(detail: "PulseAudio: \(failure)") }
  }

  public func drain() throws {
    guard let mainloop else { return }
    let failure: String? = locked(mainloop) {
      guard let stream, streamIsReady else { return nil }
      finish(
        pa_stream_drain(
          stream, { _, _, data in signalLoop(data) }, UnsafeMutableRawPointer(mainloop)))
      return streamIsReady ? nil : errorText()
    }
    if let failure { throw AudioError.outputFailed(detail: "PulseAudio: \(failure)") }
  }

  /// Seconds queued and in the sink, from libpulse's interpolated timing (no round trip).
  public var latency: Double {
    guard let mainloop else { return 0 }
    return locked(mainloop) {
      var micros: pa_usec_t = 0
      var negative: Int32 = 0
      while let stream, streamIsReady {
        if pa_stream_get_latency(stream, &micros, &negative) >= 0 {
          return negative != 0 ? 0 : Double(micros) / 1_000_000
        }
        // No timing data yet (just connected or flushed): libpulse has asked for it.
        pa_threaded_mainloop_wait(mainloop)
      }
      return 0
    }
  }

  /// Closed after a while paused or stopped, so libpulse's thread stops waking.
  public var closesWhenIdle: Bool { true }

  public func close() {
    if let mainloop {
      locked(mainloop) {
        if let stream {
          pa_stream_set_state_callback(stream, nil, nil)
          pa_stream_set_write_callback(stream, nil, nil)
          pa_stream_set_latency_update_callback(stream, nil, nil)
          pa_stream_disconnect(stream)
          pa_stream_unref(stream)
        }
        if let context {
          pa_context_set_state_callback(context, nil, nil)
          pa_context_disconnect(context)
          pa_context_unref(context)
        }
      }
      pa_threaded_mainloop_stop(mainloop)
      pa_threaded_mainloop_free(mainloop)
    } else if let context {
      pa_context_unref(context)
    }
    stream = nil
    context = nil
    mainloop = nil
    format = nil
  }

  // MARK: - Helpers (called with the main loop locked)

  private var streamIsReady: Bool {
    guard let stream, let context else { return false }
    return pa_context_get_state(context) == PA_CONTEXT_READY
      && pa_stream_get_state(stream) == PA_STREAM_READY
  }

  private func waitForContext() -> String? {
    guard let mainloop, let context else { return "no context" }
    while true {
      let state = pa_context_get_state(context)
      if state == PA_CONTEXT_READY { return nil }
      if state == PA_CONTEXT_FAILED || state == PA_CONTEXT_TERMINATED { return errorText() }
      pa_threaded_mainloop_wait(mainloop)
    }
  }

  private func connectStream(_ format: PCMFormat) -> String? {
    guard let mainloop, let context else { return "no context" }
    var spec = pa_sample_spec(
      format: PA_SAMPLE_S16LE, rate: UInt32(format.sampleRate), channels: UInt8(format.channels))
    guard let created = pa_stream_new(context, "Refrain", &spec, nil) else { return errorText() }
    stream = created
    let userdata = UnsafeMutableRawPointer(mainloop)
    pa_stream_set_state_callback(created, { _, data in signalLoop(data) }, userdata)
    pa_stream_set_write_callback(created, { _, _, data in signalLoop(data) }, userdata)
    pa_stream_set_latency_update_callback(created, { _, data in signalLoop(data) }, userdata)
    func bytes(_ seconds: Double) -> UInt32 {
      UInt32(pa_usec_to_bytes(UInt64(seconds * 1_000_000), &spec))
    }
    // With latency adjustment the server gives the sink (tlength − 2·minreq) / 2. A minreq
    // that leaves sinkLatency there means the server asks for data about twice a second,
    // while the player refills the queue whenever half of it has been heard.
    let target = bufferTarget + Self.sinkLatency * 4
    var attributes = pa_buffer_attr(
      maxlength: UInt32.max, tlength: bytes(target),
      prebuf: bytes(min(bufferTarget, Self.sinkLatency)),
      minreq: bytes(max(Self.sinkLatency, target / 2 - Self.sinkLatency)), fragsize: UInt32.max)
    let flags = pa_stream_flags_t(
      rawValue: PA_STREAM_INTERPOLATE_TIMING.rawValue | PA_STREAM_AUTO_TIMING_UPDATE.rawValue
        | PA_STREAM_ADJUST_LATENCY.rawValue)
    if pa_stream_connect_playback(created, sink, &attributes, flags, nil, nil) < 0 {
      return errorText()
    }
    while true {
      let state = pa_stream_get_state(created)
      if state == PA_STREAM_READY { return nil }
      if state == PA_STREAM_FAILED || state == PA_STREAM_TERMINATED { return errorText() }
      pa_threaded_mainloop_wait(mainloop)
    }
  }

  /// Waits for an operation to end (its callback signals the loop), then releases it.
  private func finish(_ operation: OpaquePointer?) {
    guard let operation, let mainloop else { return }
    while pa_operation_get_state(operation) == PA_OPERATION_RUNNING, streamIsReady {
      pa_threaded_mainloop_wait(mainloop)
    }
    pa_operation_unref(operation)
  }

  private func errorText() -> String {
    let code = context.map { pa_context_errno($0) } ?? Int32(PA_ERR_CONNECTIONREFUSED.rawValue)
    guard let text = pa_strerror(code) else { return "error \(code)" }
    return String(cString: text)
  }

  private func locked<T>(_ loop: OpaquePointer, _ body: () -> T) -> T {
    pa_threaded_mainloop_lock(loop)
    defer { pa_threaded_mainloop_unlock(loop) }
    return body()
  }
}

/// Wakes whoever waits on the threaded main loop passed as callback user data.
private func signalLoop(_ userdata: UnsafeMutableRawPointer?) {
  guard let userdata else { return }
  pa_threaded_mainloop_signal(OpaquePointer(userdata), 0)
}
