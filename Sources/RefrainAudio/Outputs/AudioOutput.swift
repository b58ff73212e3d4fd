/// Where decoded PCM goes: a sound server, a silent clock, or a file.
///
/// Like cmus's output plugin table, this is the only surface the player sees. All calls
/// come from the player thread, except ``latency``, which must be cheap.
public protocol AudioOutput: AnyObject {
  /// A short name for messages (`pulse`, `null`, `wav`).
  var name: String { get }
  /// Prepares the output for `format`; an open output is reopened if the format differs.
  func open(_ format: PCMFormat) throws
  /// Writes PCM, blocking until the output accepted all of it (real-time pace).
  func write(_ bytes: UnsafeRawBufferPointer) throws
  /// Discards audio that was written but not yet heard (before a seek or a pause).
  func drop()
  /// Discards audio not yet heard and queues `bytes` in its place (a seek).
  func replaceQueue(with bytes: UnsafeRawBufferPointer) throws
  /// Blocks until everything written has been heard.
  func drain() throws
  /// Seconds of written audio the listener has not heard yet.
  var latency: Double { get }
  /// Releases the device or file.
  func close()
  /// Whether the player closes this output when nothing has played for a while.
  ///
  /// A sound-server connection keeps a thread waking while it is open; a file must stay
  /// open until the end.
  var closesWhenIdle: Bool { get }
  /// Seconds of audio the player keeps queued ahead of the listener, or `nil` when
  /// ``write(_:)`` paces playback itself by blocking.
  ///
  /// With a value, the player refills the queue when half of it has been heard and sleeps
  /// in between, waking at once for commands; seeks, pauses and volume changes flush it.
  var bufferAhead: Double? { get }
  /// Bytes ``write(_:)`` takes now without blocking, or `nil` when unknown.
  ///
  /// A deep queue's server asks for data in large steps; the player writes no more than
  /// this, so it never blocks where a command would have to wait.
  var writableBytes: Int? { get }
  /// The format every track is converted to, once the output has one (a file holds the
  /// format of its header), or `nil` when the output may be reopened at another.
  var heldFormat: PCMFormat? { get }
}

extension AudioOutput {
  /// Drops, then writes: outputs that can send both at once do so instead.
  public func replaceQueue(with bytes: UnsafeRawBufferPointer) throws {
    drop()
    try write(bytes)
  }

  public var closesWhenIdle: Bool { false }
  public var bufferAhead: Double? { nil }
  public var writableBytes: Int? { nil }
  public var heldFormat: PCMFormat? { nil }
}
