import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Downloads an HTTP(S) resource into memory while the decoder reads what has arrived.
///
/// The decoder blocks in ``bytes(from:maxCount:shouldStop:)`` until data is there, the
/// download ends, or it fails. Everything stays in memory: previews are small (≈ 0.5 MB).
public final class ProgressiveDownload: NSObject, URLSessionDataDelegate, @unchecked Sendable {
  /// What a read returns.
  public enum Chunk: Equatable {
    /// Bytes starting at the requested offset.
    case data([UInt8])
    /// The download completed and no bytes remain past the offset.
    case end
    /// The caller asked to stop waiting.
    case interrupted
  }

  /// The URL being fetched.
  public let url: URL
  private let condition = NSCondition()
  private var buffer: [UInt8] = []
  private var finished = false
  private var failure: AudioError?
  private var expected: Int64?
  private var session: URLSession?
  private let timeout: TimeInterval

  /// Starts downloading `url`; `timeout` bounds the wait for the first byte and any stall.
  public init(url: URL, timeout: TimeInterval = 10) {
    self.url = url
    self.timeout = timeout
    super.init()
    let configuration = URLSessionConfiguration.ephemeral
    configuration.timeoutIntervalForRequest = timeout
    configuration.httpAdditionalHeaders = ["User-Agent": "Refrain/0.1 (terminal music player)"]
    let queue = OperationQueue()
    queue.maxConcurrentOperationCount = 1
    let session = URLSession(configuration: configuration, delegate: self, delegateQueue: queue)
    self.session = session
    session.dataTask(with: url).resume()
  }

  /// The size announced by the server, if any.
  public var expectedLength: Int64? {
    condition.lock()
    defer { condition.unlock() }
    return expected
  }

  /// Bytes received so far.
  public var receivedCount: Int {
    condition.lock()
    defer { condition.unlock() }
    return buffer.count
  }

  /// Whether the whole resource has arrived.
  public var isComplete: Bool {
    condition.lock()
    defer { condition.unlock() }
    return finished && failure == nil
  }

  /// Returns up to `maxCount` bytes at `offset`, waiting for them if they are still coming.
  ///
  /// Throws the download's error once the bytes before it are consumed. `shouldStop` is
  /// checked every 20 ms while waiting so the player can react to commands.
  public func bytes(from offset: Int, maxCount: Int, shouldStop: () -> Bool) throws -> Chunk {
    condition.lock()
    defer { condition.unlock() }
    var lastProgress = Date()
    var lastCount = buffer.count
    while true {
      if offset < buffer.count {
        let end = min(buffer.count, offset + maxCount)
        return .data(Array(buffer[offset..<end]))
      }
      if let failure { throw failure }
      if finished { return .end }
      if shouldStop() { return .interrupted }
      if buffer.count != lastCount {
        lastCount = buffer.count
        lastProgress = Date()
      } else if Date().timeIntervalSince(lastProgress) > timeout {
        session?.invalidateAndCancel()
        throw AudioError.timeout(url: url.absoluteString, seconds: timeout)
      }
      _ = condition.wait(until: Date().addingTimeInterval(0.02))
    }
  }

  /// Stops the download and releases the session.
  public func cancel() {
    session?.invalidateAndCancel()
    condition.lock()
    if !finished { failure = failure ?? .transport(url: url.absoluteString, detail: "cancelled") }
    finished = true
    condition.broadcast()
    condition.unlock()
  }

  // MARK: - URLSessionDataDelegate

  public func urlSession(
    _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
    completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
  ) {
    condition.lock()
    if let http = response as? HTTPURLResponse, !(200..<300).contains(http.statusCode) {
      failure = .httpStatus(url: url.absoluteString, status: http.statusCode)
      finished = true
      condition.broadcast()
      condition.unlock()
      completionHandler(.cancel)
      return
    }
    if response.expectedContentLength > 0 { expected = response.expectedContentLength }
    condition.unlock()
    completionHandler(.allow)
  }

  public func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data)
  {
    condition.lock()
    buffer.append(contentsOf: data)
    condition.broadcast()
    condition.unlock()
  }

  public func urlSession(
    _ session: URLSession, task: URLSessionTask, didCompleteWithError error: Error?
  ) {
    condition.lock()
    if failure == nil {
      if let error {
        failure = Self.describe(error, url: url, received: buffer.count, timeout: timeout)
      } else if let expected, Int64(buffer.count) < expected {
        failure = .transport(
          url: url.absoluteString,
          detail: "the connection closed after \(buffer.count / 1024) of \(expected / 1024) KiB")
      }
    }
    finished = true
    condition.broadcast()
    condition.unlock()
    session.finishTasksAndInvalidate()
  }

  private static func describe(_ error: Error, url: URL, received: Int, timeout: TimeInterval)
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
