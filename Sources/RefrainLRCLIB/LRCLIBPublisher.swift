import CGcrypt
import Foundation
import RefrainCore
import RefrainHTTP

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Shares lyrics on LRCLIB through its publishing API: ask for a challenge, prove the work,
/// publish.
///
/// `POST /api/request-challenge` answers a `prefix` and a `target`; the proof is the first
/// number (in decimal) whose SHA-256 of `prefix + number` is at most `target`, compared byte
/// by byte; `POST /api/publish` carries it as `X-Publish-Token: prefix:number` with the
/// track's title, artist, album, duration and the plain and synced lyrics. The work runs on
/// the caller's task (never the UI thread) and reports how many numbers it tried.
public struct LRCLIBPublisher: Sendable {
  /// What is published.
  public struct Submission: Sendable, Equatable {
    public var title: String
    public var artist: String
    public var album: String
    /// Seconds.
    public var duration: Double
    public var plainLyrics: String
    public var syncedLyrics: String

    public init(
      title: String, artist: String, album: String, duration: Double, plainLyrics: String,
      syncedLyrics: String
    ) {
      self.title = title
      self.artist = artist
      self.album = album
      self.duration = duration
      self.plainLyrics = plainLyrics
      self.syncedLyrics = syncedLyrics
    }

    /// The submission for a synced lyrics document of a track.
    public init(
      document: LyricsDocument, syncedText: String, title: String, artist: String,
      album: String?, duration: Double
    ) {
      self.init(
        title: title, artist: artist, album: album ?? "", duration: duration,
        plainLyrics: document.lines.map(\.text).joined(separator: "\n"), syncedLyrics: syncedText)
    }
  }

  /// Why publishing did not work, in words that say what to do.
  public struct Failure: Error, Sendable, Equatable, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
  }

  /// Who Refrain says it is, as LRCLIB asks of its clients.
  public static let userAgent = "Refrain/0.2 (terminal music player; tap-to-sync lyrics)"

  private let baseURL: URL
  private let transport: any HTTPTransport

  public init(
    baseURL: URL, transport: any HTTPTransport = URLSessionTransport(timeout: 20, limits: .lyrics)
  ) {
    self.baseURL = baseURL
    self.transport = transport
  }

  /// Publishes `submission`; `progress` gets the numbers tried so far, about every 50,000.
  public func publish(
    _ submission: Submission, progress: @Sendable (UInt64) -> Void = { _ in }
  ) async throws(Failure) {
    guard !submission.title.isEmpty, !submission.artist.isEmpty else {
      throw Failure("LRCLIB needs the track's title and artist; tag the file first")
    }
    guard submission.duration > 0 else {
      throw Failure("LRCLIB needs the track's duration")
    }
    let challenge = try await requestChallenge()
    guard let target = Self.bytes(hex: challenge.target), target.count == 32 else {
      throw Failure("LRCLIB sent a challenge Refrain cannot read")
    }
    guard let nonce = Self.solve(prefix: challenge.prefix, target: target, progress: progress)
    else { throw Failure("publishing was cancelled") }
    var request = URLRequest(url: baseURL.appendingPathComponent("api/publish"))
    request.httpMethod = "POST"
    request.setValue("application/json", forHTTPHeaderField: "Content-Type")
    request.setValue(Self.userAgent, forHTTPHeaderField: "User-Agent")
    request.setValue(Self.userAgent, forHTTPHeaderField: "Lrclib-Client")
    request.setValue("\(challenge.prefix):\(nonce)", forHTTPHeaderField: "X-Publish-Token")
    request.httpBody = JSONOutput.data(
      Body(
        trackName: submission.title, artistName: submission.artist,
        albumName: submission.album, duration: submission.duration.rounded(),
        plainLyrics: submission.plainLyrics, syncedLyrics: submission.syncedLyrics))
    let response = try await send(request)
    guard (200..<300).contains(response.status) else {
      throw Failure("LRCLIB refused the lyrics: \(Self.reason(response))")
    }
  }

  private struct Challenge: Decodable {
    var prefix: String
    var target: String
  }

  private struct Body: Encodable {
    var trackName: String
    var artistName: String
    var albumName: String
    var duration: Double
    var plainLyrics: String
    var syncedLyrics: String
  }

  private func requestChallenge() async throws(Failure) -> Challenge {
    var request = URLRequest(url: baseURL.appendingPathComponent("api/request-challenge"))
    request.httpMethod = "POST"
    request.setValue(Self.userAgent, forHTTPHeaderField: "User-Agent")
    request.setValue(Self.userAgent, forHTTPHeaderField: "Lrclib-Client")
    let response = try await send(request)
    guard (200..<300).contains(response.status),
      let challenge = try? JSONDecoder().decode(Challenge.self, from: response.body),
      !challenge.prefix.isEmpty
    else { throw Failure("LRCLIB gave no challenge: \(Self.reason(response))") }
    return challenge
  }

  private func send(_ request: URLRequest) async throws(Failure) -> HTTPResponse {
    do {
      return try await transport.send(request)
    } catch {
      throw Failure("cannot reach LRCLIB: \(error)")
    }
  }

  private static func reason(_ response: HTTPResponse) -> String {
    let text = TerminalSanitizer.clean(String(decoding: response.body.prefix(200), as: UTF8.self))
    return "HTTP \(response.status)\(text.isEmpty ? "" : ": \(text)")"
  }

  // MARK: - The proof of work

  /// The first number whose SHA-256 of `prefix` followed by it in decimal is at most
  /// `target`; `nil` when the task is cancelled first.
  static func solve(prefix: String, target: [UInt8], progress: (UInt64) -> Void) -> UInt64? {
    var input = Array(prefix.utf8)
    let prefixCount = input.count
    var digest = [UInt8](repeating: 0, count: 32)
    var nonce: UInt64 = 0
    while true {
      input.removeSubrange(prefixCount...)
      input.append(contentsOf: String(nonce).utf8)
      Digests.hash(GCRY_MD_SHA256, input, into: &digest)
      if !target.lexicographicallyPrecedes(digest) { return nonce }
      nonce += 1
      if nonce % 50_000 == 0 {
        progress(nonce)
        if Task.isCancelled { return nil }
      }
    }
  }

  /// The bytes of a hex string, or `nil` when it is not one.
  static func bytes(hex: String) -> [UInt8]? {
    let digits = Array(hex.utf8)
    guard digits.count % 2 == 0 else { return nil }
    var bytes: [UInt8] = []
    bytes.reserveCapacity(digits.count / 2)
    var index = 0
    while index < digits.count {
      guard let high = value(digits[index]), let low = value(digits[index + 1]) else { return nil }
      bytes.append(high << 4 | low)
      index += 2
    }
    return bytes
  }

  private static func value(_ digit: UInt8) -> UInt8? {
    switch digit {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): return digit - UInt8(ascii: "0")
    case UInt8(ascii: "a")...UInt8(ascii: "f"): return digit - UInt8(ascii: "a") + 10
    case UInt8(ascii: "A")...UInt8(ascii: "F"): return digit - UInt8(ascii: "A") + 10
    default: return nil
    }
  }
}
