import CCurlLoader
import Foundation
import RefrainCore

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// An HTTP(S) resource read at any offset while it arrives: what every decoder reads a URL
/// through.
///
/// The first request asks for `Range: bytes=0-`. When the server answers 206, the resource
/// is read with range requests: each request reads ahead in order from where it starts, so
/// playback begins as soon as the head is there; a read that jumps past what has arrived
/// (an M4A's `moov` at the end, a seek) starts a new request there; a request that runs
/// more than ``readAhead`` past the last read stops, and goes on when the reader comes
/// near; a connection that drops after delivering bytes is taken up again from where it
/// stopped. Memory stays near ``memoryBudget``: pieces far from the reader are dropped,
/// and read again if needed. When the server ignores the range (200), the resource is one
/// progressive download kept whole in memory, as a small file is.
///
/// Every request asks for ICY metadata (`Icy-MetaData: 1`). A server that answers with
/// `icy-` headers (Icecast, SHOUTcast) sends a live stream: its metadata blocks are split
/// from the audio (``ICYDemuxer``), so decoders only see audio, and each new `StreamTitle`
/// is told to `news`. A live stream keeps only what lies near the reader; it stops reading
/// when it runs ``readAhead`` ahead (a paused listener) and reads on when the reader comes
/// near. When it drops, is refused or answers an error, it reconnects after 0.5 s, doubling
/// to 10 s while it keeps dropping (``ReconnectBackoff``: back to 0.5 s only after 10 s of
/// audio), for as long as it is read, and tells `news` so; it never times out.
///
/// Waiting reads check `shouldStop` every 20 ms (and, while a decoder opens, the
/// ``interrupt`` given for the opening), tell `news` ``StreamNews/stalled(reason:)`` once
/// a read has waited ``stallNotice`` seconds with nothing arriving (and
/// ``StreamNews/flowing`` when bytes come again), and give up with
/// ``AudioError/timeout(url:seconds:)`` when nothing arrives for `timeout` seconds.
/// A server that claims more than it sends ends reads instead of keeping them waiting: a
/// range answered 206 and closed without a byte fails at once (the server has nothing
/// there), and a cursor over the source reports the failure to its C library as an error.
/// Errors name the URL: ``AudioError/httpStatus(url:status:)`` for a refusal,
/// ``AudioError/transport(url:detail:)`` for a failed or cut connection. Its requests stop
/// when it is released (with the decoder that reads it) or cancelled.
public final class HTTPByteSource: @unchecked Sendable {
  /// What a read returns.
  public enum Chunk: Equatable {
    /// Bytes starting at the requested offset.
    case data([UInt8])
    /// No bytes remain past the offset.
    case end
    /// The caller asked to stop waiting.
    case interrupted
  }

  /// The URL being read.
  public let url: URL
  /// How far (bytes) a range request reads ahead of the last read before it stops.
  let readAhead: UInt64
  /// About how many bytes are kept when the server honours ranges.
  let memoryBudget: Int

  /// Bytes that arrived in order from `start`, and the request adding to them, if any.
  private final class Piece {
    var start: UInt64
    var bytes: [UInt8] = []
    var task: URLSessionDataTask?
    /// Whether the request running (or last run) for it delivered bytes.
    var progressed = false
    /// Why its last request stopped before the end.
    var stopped: AudioError?
    /// Whether that was the server or the link going away (refused, dropped, timed out,
    /// closed early), which asking again may mend; not an HTTP error or a TLS failure.
    var transient = false
    /// Whether the server answered the request running (or last run) for it.
    var answered = false
    var end: UInt64 { start + UInt64(bytes.count) }

    init(start: UInt64) { self.start = start }
  }

  private let condition = NSCondition()
  private let timeout: TimeInterval
  private var session: URLSession?
  private var pieces: [Piece] = []
  private var total: UInt64?
  /// Whether the server answers ranges: `nil` until its first answer.
  private var ranged: Bool?
  /// A failure that ends every read (a refusal; a cut download without ranges).
  private var failure: AudioError?
  /// Every byte that ever arrived, to tell a stall.
  private var arrived = 0
  private var lastRead: UInt64 = 0
  private var requests = 0
  /// Whether requests go without a Range header: after a 416 for `bytes=0-` (an empty
  /// file, or a server that refuses ranges that way).
  private var withoutRanges = false
  /// Told what a live stream says: that it is live, its titles, its reconnections.
  private let news: (@Sendable (StreamNews) -> Void)?
  /// Whether the server sent a live stream (ICY headers).
  private var live = false
  /// Splits the metadata from a live stream's audio when the server sends `icy-metaint`.
  private var demuxer: ICYDemuxer?
  /// The last title told, so only changes are (and, after a reconnection, the first again).
  private var lastTitle: String?
  /// Titles that arrived ahead of the audio they come with, and the audio offset where each
  /// begins: each is told when the reader gets there, so it changes with the sound.
  private var titlesAhead: [(offset: UInt64, title: String)] = []
  /// Where the audio of the last reconnection begins: its first title is told even when it
  /// is the same as before the drop.
  private var retellFrom: UInt64?
  /// The wait before the next reconnection: grows while the stream keeps dropping.
  private var backoff = ReconnectBackoff()
  /// Whether a reconnection is scheduled.
  private var retryPending = false
  /// A file whose server went away mid-download: since when its resumes have failed, and
  /// when the next one is due (0.25 s doubling to 2 s, for as long as ``timeout`` allows).
  private var resumeFailingSince: Date?
  private var resumeDue: Date?
  private var resumeBackoff = 0.25
  /// Whether the live stream dropped and has not delivered audio since.
  private var reconnecting = false
  /// Whether the reader was told that the stream stalled, and not yet that it flows again.
  private var stallTold = false
  /// While a decoder opens: whether to give up a read that waits (a command arrived). The
  /// C libraries' reads have no `shouldStop` of their own.
  private var interrupt: (() -> Bool)?
  /// How long a read waits with nothing arriving before `news` hears that it stalled.
  static let stallNotice: TimeInterval = 1
  /// How many bytes a live stream keeps behind the reader.
  private static let liveBehind = 64 << 10

  /// A read that lands within this many bytes past a piece still arriving waits for it
  /// rather than asking again: less than arrives in a moment on any link that plays music,
  /// so the libraries' bisecting seeks ask for what they need at once.
  private static let nearby: UInt64 = 8_192

  /// Starts reading `url` from its first byte.
  public init(
    url: URL, timeout: TimeInterval = 10, readAhead: UInt64 = 4 << 20, memoryBudget: Int = 32 << 20,
    news: (@Sendable (StreamNews) -> Void)? = nil
  ) {
    self.url = url
    self.news = news
    self.timeout = timeout
    self.readAhead = readAhead
    self.memoryBudget = memoryBudget
    let configuration = URLSessionConfiguration.ephemeral
    configuration.timeoutIntervalForRequest = timeout
    configuration.httpAdditionalHeaders = ["User-Agent": "Refrain/0.1 (terminal music player)"]
    let queue = OperationQueue()
    queue.maxConcurrentOperationCount = 1
    session = URLSession(
      configuration: configuration, delegate: SessionDelegate(self), delegateQueue: queue)
    condition.lock()
    let first = Piece(start: 0)
    pieces.append(first)
    request(first)
    condition.unlock()
  }

  /// Loads libcurl (which URLSession uses) if it is not loaded yet; throws
  /// ``AudioError/transport(url:detail:)`` saying why the network cannot be used.
  static func loadNetwork(for url: URL) throws {
    var reason = [CChar](repeating: 0, count: 512)
    guard refrain_curl_load(&reason, UInt(reason.count)) != 0 else {
      throw AudioError.transport(url: url.absoluteString, detail: String(cString: reason))
    }
  }

  /// The resource's size, once the server has said it (or a download without one ended).
  public var length: UInt64? {
    condition.lock()
    defer { condition.unlock() }
    return total
  }

  /// Whether the server honours range requests: `nil` before its first answer.
  public var honoursRanges: Bool? {
    condition.lock()
    defer { condition.unlock() }
    return ranged
  }

  /// Whether the server sent a live stream (ICY headers): `false` before its first answer.
  public var isLive: Bool {
    condition.lock()
    defer { condition.unlock() }
    return live
  }

  /// How many requests have been made so far.
  public var requestCount: Int {
    condition.lock()
    defer { condition.unlock() }
    return requests
  }

  /// The bytes held in memory now.
  public var bufferedCount: Int {
    condition.lock()
    defer { condition.unlock() }
    return pieces.reduce(0) { $0 + $1.bytes.count }
  }

  /// Returns up to `maxCount` bytes at `offset`, waiting for them while they are on their way.
  ///
  /// It asks for them when no request will bring them. Bytes that arrived are returned even
  /// after a failure; the failure is thrown for the bytes it kept away.
  public func bytes(from offset: UInt64, maxCount: Int, shouldStop: () -> Bool) throws -> Chunk {
    condition.lock()
    defer { condition.unlock() }
    lastRead = offset
    var lastProgress = Date()
    var lastArrived = arrived
    while true {
      if let total, offset >= total { return .end }
      if let piece = pieces.first(where: { $0.start <= offset && offset < $0.end }) {
        let from = Int(offset - piece.start)
        let bytes = Array(piece.bytes[from..<min(piece.bytes.count, from + maxCount)])
        if stallTold {
          stallTold = false
          news?(.flowing)
        }
        if live {
          tellTitles(upTo: offset + UInt64(bytes.count))
          keepNearReader(piece, at: offset)
        } else if ranged == true {
          keepWithinBudget(reading: piece)
          // Read ahead again once half of what was read ahead is used.
          if piece.task == nil, piece.end < offset + readAhead / 2,
            total.map({ piece.end < $0 }) ?? true,
            piece.stopped == nil || piece.progressed
          {
            request(piece)
          }
        }
        return .data(bytes)
      }
      if let failure { throw failure }
      if let ended = try arrange(for: offset) { return ended }
      if shouldStop() { return .interrupted }
      if live {
        // A live stream waits for as long as it takes: its reconnections say why.
        _ = condition.wait(until: Date().addingTimeInterval(0.02))
        continue
      }
      if arrived != lastArrived {
        lastArrived = arrived
        lastProgress = Date()
      } else if !stallTold, Date().timeIntervalSince(lastProgress) >= Self.stallNotice {
        stallTold = true
        news?(.stalled(reason: stallReason(at: offset)))
      }
      if Date().timeIntervalSince(lastProgress) > timeout {
        cancelAll()
        failure = .timeout(url: url.absoluteString, seconds: timeout)
        throw AudioError.timeout(url: url.absoluteString, seconds: timeout)
      }
      _ = condition.wait(until: Date().addingTimeInterval(0.02))
    }
  }

  /// Why the byte at `offset` is not coming: how its request stopped, or that the server
  /// sends nothing.
  private func stallReason(at offset: UInt64) -> String {
    let piece = pieces.first { $0.start <= offset && offset <= $0.end }
    switch piece?.stopped ?? failure {
    case .transport(_, let detail)?: return detail
    case .httpStatus(_, let status)?: return "the server answered HTTP \(status)"
    case let other?: return other.description
    case nil: break
    }
    return "the server has sent nothing for \(Int(Self.stallNotice)) s"
  }

  /// Makes sure a request will bring the byte at `offset`, which is not here.
  ///
  /// It waits for a running one, takes up a stopped one, or starts one there. Returns
  /// ``Chunk/end`` when nothing is there to wait for; throws why it cannot come.
  private func arrange(for offset: UInt64) throws -> Chunk? {
    guard let ranged else { return nil }  // the first answer is not in yet
    guard ranged else {
      // One download from the start: wait for it, or report how it ended.
      guard let whole = pieces.first, whole.task == nil else { return nil }
      if live {
        if !retryPending { request(whole) }
        return nil
      }
      if let stopped = whole.stopped { throw stopped }
      if total == nil { total = whole.end }
      return .end
    }
    if let piece = pieces.first(where: {
      $0.start <= offset && offset <= $0.end + ($0.task == nil ? 0 : Self.nearby)
    }) {
      if piece.task != nil { return nil }
      if let stopped = piece.stopped, !piece.progressed {
        // A server restarted or a link dropped: ask again after a growing pause while the
        // timeout allows; the last reason stands after that, as for any other failure.
        let now = Date()
        let since = resumeFailingSince ?? now
        guard piece.transient, now.timeIntervalSince(since) < timeout else { throw stopped }
        resumeFailingSince = since
        if let due = resumeDue, now < due { return nil }
        if resumeDue == nil {
          resumeDue = now.addingTimeInterval(resumeBackoff)
          resumeBackoff = min(resumeBackoff * 2, 2)
          return nil
        }
        resumeDue = nil
      }
      request(piece)
      return nil
    }
    // A jump: the requests far from here stop, and a new one starts here.
    for piece in pieces where piece.task != nil { pause(piece) }
    let piece = Piece(start: offset)
    pieces.append(piece)
    request(piece)
    return nil
  }

  /// Reads `count` bytes at `offset` (fewer only at the end), waiting as long as the timeout
  /// allows; `nil` when `shouldStop` said to give up first.
  public func read(at offset: UInt64, count: Int, shouldStop: () -> Bool) throws -> [UInt8]? {
    var result: [UInt8] = []
    while result.count < count {
      switch try bytes(
        from: offset + UInt64(result.count), maxCount: count - result.count,
        shouldStop: shouldStop)
      {
      case .data(let bytes): result += bytes
      case .end: return result
      case .interrupted: return nil
      }
    }
    return result
  }

  deinit { session?.invalidateAndCancel() }

  /// Stops every request and releases the session; reads after it throw.
  public func cancel() {
    condition.lock()
    if failure == nil { failure = .transport(url: url.absoluteString, detail: "cancelled") }
    cancelAll()
    condition.broadcast()
    condition.unlock()
  }

  // MARK: - Requests (the lock held)

  private func request(_ piece: Piece) {
    guard let session else { return }
    var request = URLRequest(url: url)
    if !withoutRanges { request.setValue("bytes=\(piece.end)-", forHTTPHeaderField: "Range") }
    request.setValue("1", forHTTPHeaderField: "Icy-MetaData")
    let task = session.dataTask(with: request)
    piece.task = task
    piece.progressed = false
    piece.answered = false
    piece.stopped = nil
    requests += 1
    task.resume()
  }

  private func pause(_ piece: Piece) {
    let task = piece.task
    piece.task = nil
    task?.cancel()
  }

  private func cancelAll() {
    for piece in pieces { pause(piece) }
    session?.invalidateAndCancel()
    session = nil
  }

  private func piece(of task: URLSessionTask) -> Piece? {
    pieces.first { $0.task === task }
  }

  /// Drops what lies far from the reader when more than the budget is held: whole pieces
  /// farthest from `reading` first, then the start of `reading` itself.
  private func keepWithinBudget(reading: Piece) {
    var held = pieces.reduce(0) { $0 + $1.bytes.count }
    guard held > memoryBudget else { return }
    let others = pieces.filter { $0 !== reading }.sorted {
      Self.distance($0, lastRead) > Self.distance($1, lastRead)
    }
    for piece in others where held > memoryBudget {
      pause(piece)
      held -= piece.bytes.count
      pieces.removeAll { $0 === piece }
    }
    let behind = Int(lastRead - reading.start)
    let keep = memoryBudget / 4
    if held > memoryBudget, behind > keep {
      reading.bytes.removeFirst(behind - keep)
      reading.start += UInt64(behind - keep)
    }
  }

  /// Drops what a live stream holds far behind the reader, and reads on when a stream that
  /// stopped ahead of a paused reader is needed again.
  private func keepNearReader(_ piece: Piece, at offset: UInt64) {
    let behind = Int(offset - piece.start)
    if behind > Self.liveBehind * 4 {
      piece.bytes.removeFirst(behind - Self.liveBehind)
      piece.start += UInt64(behind - Self.liveBehind)
    }
    if piece.task == nil, !retryPending, piece.end < offset + readAhead / 2 { request(piece) }
  }

  /// Tells the titles whose audio the reader has reached, when they differ from the last.
  private func tellTitles(upTo offset: UInt64) {
    while let next = titlesAhead.first, next.offset <= offset {
      titlesAhead.removeFirst()
      let first = retellFrom.map { next.offset >= $0 } ?? false
      guard next.title != lastTitle || first else { continue }
      if first { retellFrom = nil }
      lastTitle = next.title
      news?(.title(StreamTitle(raw: next.title)))
    }
  }

  /// Schedules the live stream's next connection after the backoff, and says so.
  private func retry(reason: String) {
    guard session != nil, !retryPending else { return }
    retryPending = true
    reconnecting = true
    let delay = backoff.dropped(at: ProcessInfo.processInfo.systemUptime)
    news?(.reconnecting(reason: reason, retryIn: delay))
    DispatchQueue.global().asyncAfter(deadline: .now() + delay) { [weak self] in
      self?.reconnect()
    }
  }

  private func reconnect() {
    condition.lock()
    defer {
      condition.broadcast()
      condition.unlock()
    }
    retryPending = false
    guard session != nil, let piece = pieces.first, piece.task == nil else { return }
    request(piece)
  }

  /// Takes a live stream's answer to a (re)connection: its audio follows what came before.
  private func receivedLive(status: Int, metaint: String?, piece: Piece) -> Bool {
    guard (200..<300).contains(status) else {
      piece.task = nil
      retry(reason: "HTTP \(status)")
      return false
    }
    demuxer = Self.demuxer(metaint)
    retellFrom = piece.end  // the title is told again after a reconnection
    return true
  }

  private static func demuxer(_ metaint: String?) -> ICYDemuxer? {
    guard let metaint, let interval = Int(metaint.trimmingCharacters(in: .whitespaces)),
      interval > 0
    else { return nil }
    return ICYDemuxer(interval: interval)
  }

  /// A short reason for a live stream's drop: "connection refused", "timed out"…
  private static func dropReason(_ error: Error?) -> String {
    guard let error else { return "the server ended the stream" }
    switch (error as NSError).code {
    case NSURLErrorTimedOut: return "timed out"
    case NSURLErrorCannotConnectToHost: return "connection refused"
    case NSURLErrorNetworkConnectionLost: return "connection lost"
    default: return (error as NSError).localizedDescription
    }
  }

  private static func distance(_ piece: Piece, _ offset: UInt64) -> UInt64 {
    if offset < piece.start { return piece.start - offset }
    return offset > piece.end ? offset - piece.end : 0
  }

  // MARK: - What the session reports

  fileprivate func received(
    _ response: URLResponse, for dataTask: URLSessionDataTask,
    completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
  ) {
    condition.lock()
    defer {
      condition.broadcast()
      condition.unlock()
    }
    guard let piece = piece(of: dataTask) else {
      completionHandler(.cancel)
      return
    }
    let status = (response as? HTTPURLResponse)?.statusCode ?? 200
    let headers = (response as? HTTPURLResponse)?.allHeaderFields ?? [:]
    func header(_ name: String) -> String? {
      headers.first { ($0.key as? String)?.lowercased() == name }?.value as? String
    }
    if live {
      completionHandler(
        receivedLive(status: status, metaint: header("icy-metaint"), piece: piece)
          ? .allow : .cancel)
      return
    }
    switch status {
    case 206:
      let range = header("content-range").flatMap(Self.contentRange)
      guard let range, range.start == piece.end else {
        piece.task = nil
        failure = .transport(
          url: url.absoluteString,
          detail:
            "the server sent bytes from \(header("content-range") ?? "nowhere") for \(piece.end)-")
        completionHandler(.cancel)
        return
      }
      ranged = true
      if let size = range.total { total = size }
      piece.answered = true
      completionHandler(.allow)
    case 416 where ranged == nil && piece.end == 0 && !withoutRanges:
      // Asked again without a range: the answer is the whole resource, or says why not.
      withoutRanges = true
      request(piece)
      completionHandler(.cancel)
    case 416 where ranged == true || piece.end > 0:
      // Nothing past the end: the piece is whole.
      piece.task = nil
      if total == nil {
        total = header("content-range").flatMap(Self.unsatisfiedLength) ?? piece.end
      }
      completionHandler(.cancel)
    case 200..<300:
      // The whole resource from its first byte: a server that ignores ranges.
      ranged = false
      for other in pieces where other !== piece { pause(other) }
      pieces = [piece]
      piece.start = 0
      piece.bytes.removeAll()
      if headers.keys.contains(where: { ($0 as? String)?.lowercased().hasPrefix("icy-") == true }) {
        live = true
        withoutRanges = true
        demuxer = Self.demuxer(header("icy-metaint"))
        news?(.live)
      } else if response.expectedContentLength > 0 {
        total = UInt64(response.expectedContentLength)
      }
      completionHandler(.allow)
    default:
      piece.task = nil
      failure = .httpStatus(url: url.absoluteString, status: status)
      completionHandler(.cancel)
    }
  }

  fileprivate func received(_ data: Data, for dataTask: URLSessionDataTask) {
    condition.lock()
    defer {
      condition.broadcast()
      condition.unlock()
    }
    guard let piece = piece(of: dataTask) else { return }
    if demuxer != nil, let split = demuxer?.feed(data) {
      piece.bytes.append(contentsOf: split.audio)
      let start = piece.end - UInt64(split.audio.count)
      for block in split.blocks {
        guard let title = ICYDemuxer.streamTitle(in: block.text) else { continue }
        titlesAhead.append((start + UInt64(block.audioBefore), title))
      }
    } else {
      piece.bytes.append(contentsOf: data)
    }
    piece.progressed = true
    arrived += data.count
    if live {
      backoff.delivered(at: ProcessInfo.processInfo.systemUptime)
      if reconnecting {
        reconnecting = false
        news?(.reconnected)
      }
      // A paused listener: stop reading until the reader comes near.
      if piece.end > lastRead + readAhead { pause(piece) }
      return
    }
    resumeFailingSince = nil
    resumeBackoff = 0.25
    if ranged == true, piece.end > lastRead + readAhead { pause(piece) }
  }

  fileprivate func completed(_ task: URLSessionTask, error: Error?) {
    condition.lock()
    defer {
      condition.broadcast()
      condition.unlock()
    }
    guard let piece = piece(of: task) else { return }
    piece.task = nil
    if live {
      retry(reason: Self.dropReason(error))
      return
    }
    var stopped: AudioError?
    piece.transient = Self.isTransient(error)
    if ranged == true, piece.answered, !piece.progressed, let total, piece.end < total {
      // A 206 for bytes the server then did not send: it claims a length it does not have.
      piece.transient = false
      stopped = .transport(
        url: url.absoluteString,
        detail: "the server claims \(total) bytes but sent none from byte \(piece.end)")
    } else if let error {
      stopped = Self.describe(error, url: url, received: piece.bytes.count, timeout: timeout)
    } else if let total, piece.end < total {
      stopped = .transport(
        url: url.absoluteString,
        detail: "the connection closed after \(piece.end / 1024) of \(total / 1024) KiB")
    }
    piece.stopped = stopped
    if ranged != true, let stopped, failure == nil { failure = stopped }
  }

  /// `bytes START-END/TOTAL` (TOTAL may be `*`).
  static func contentRange(_ value: String) -> (start: UInt64, total: UInt64?)? {
    let text = value.trimmingCharacters(in: .whitespaces)
    guard text.lowercased().hasPrefix("bytes ") else { return nil }
    let parts = text.dropFirst(6).split(separator: "/", maxSplits: 1)
    guard parts.count == 2, let dash = parts[0].firstIndex(of: "-"),
      let start = UInt64(parts[0][..<dash])
    else { return nil }
    return (start, UInt64(parts[1]))
  }

  /// The length in a 416 answer's `bytes */TOTAL`.
  static func unsatisfiedLength(_ value: String) -> UInt64? {
    let parts = value.split(separator: "/")
    return parts.count == 2 ? UInt64(parts[1].trimmingCharacters(in: .whitespaces)) : nil
  }

  /// Whether a request that ended with `error` (`nil`: closed early) may succeed if asked
  /// again: the server refused, dropped or did not answer; not an HTTP or TLS failure.
  static func isTransient(_ error: Error?) -> Bool {
    guard let error else { return true }
    return [
      NSURLErrorCannotConnectToHost, NSURLErrorNetworkConnectionLost, NSURLErrorTimedOut,
      NSURLErrorNotConnectedToInternet,
    ].contains((error as NSError).code)
  }

  static func describe(_ error: Error, url: URL, received: Int, timeout: TimeInterval)
    -> AudioError
  {
    let nsError = error as NSError
    switch nsError.code {
    case NSURLErrorTimedOut:
      return .timeout(url: url.absoluteString, seconds: timeout)
    case NSURLErrorCannotConnectToHost:
      return .transport(url: url.absoluteString, detail: "connection refused")
    case NSURLErrorNetworkConnectionLost:
      return .transport(
        url: url.absoluteString, detail: "the connection dropped after \(received / 1024) KiB")
    default:
      return .transport(url: url.absoluteString, detail: nsError.localizedDescription)
    }
  }
}

extension HTTPByteSource {
  /// Runs `body` (a decoder opening over this source) with reads that wait giving up, by
  /// throwing, as soon as `shouldStop` says so: a C library opening a stream reads with no
  /// way to stop of its own.
  func opening<Result>(shouldStop: @escaping () -> Bool, _ body: () throws -> Result) rethrows
    -> Result
  {
    condition.lock()
    interrupt = shouldStop
    condition.unlock()
    defer {
      condition.lock()
      interrupt = nil
      condition.unlock()
    }
    return try body()
  }

  /// Whether a read that waits should give up: a command arrived while a decoder opens.
  fileprivate func interrupted() -> Bool { interrupt?() ?? false }

  fileprivate var stoppedWhileOpening: AudioError {
    .transport(url: url.absoluteString, detail: "stopped while opening")
  }
}

/// The session's delegate: it holds its source weakly, so that the session (which keeps its
/// delegate) does not keep the source, and the source's deinit can stop the session.
private final class SessionDelegate: NSObject, URLSessionDataDelegate, @unchecked Sendable {
  weak var source: HTTPByteSource?

  init(_ source: HTTPByteSource) { self.source = source }

  func urlSession(
    _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
    completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
  ) {
    guard let source else { return completionHandler(.cancel) }
    source.received(response, for: dataTask, completionHandler: completionHandler)
  }

  func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
    source?.received(data, for: dataTask)
  }

  func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: Error?) {
    source?.completed(task, error: error)
  }
}

extension HTTPByteSource: DecoderInput {
  var name: String { url.absoluteString }
  var size: UInt64? { length }

  func read(at offset: UInt64, count: Int) throws -> [UInt8] {
    guard let bytes = try read(at: offset, count: count, shouldStop: interrupted) else {
      throw stoppedWhileOpening
    }
    return bytes
  }

  func readSome(at offset: UInt64, count: Int) throws -> [UInt8] {
    switch try bytes(from: offset, maxCount: count, shouldStop: interrupted) {
    case .data(let bytes): return bytes
    case .end: return []
    case .interrupted: throw stoppedWhileOpening
    }
  }

  func prepare(at offset: UInt64, count: Int, shouldStop: () -> Bool) throws -> Bool {
    var at = offset
    let end = offset + UInt64(count)
    while at < end {
      switch try bytes(
        from: at, maxCount: Int(end - at), shouldStop: { shouldStop() || interrupted() })
      {
      case .data(let bytes): at += UInt64(bytes.count)
      case .end: return true
      case .interrupted: return false
      }
    }
    return true
  }
}
