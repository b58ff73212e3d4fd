import Foundation
import RefrainCore

/// A server's transcoded stream, whose bytes do not map to time: it seeks by asking for the
/// stream again from a whole second, or refuses, as the track's ``StreamSeeking`` says.
///
/// Its position is the second the current request began at plus what that request decoded,
/// so the audible clock goes on from the offset. Its duration is the catalog's (the server's
/// song length) when known, as a transcoded stream rarely knows its own. A small step back
/// within what the current request holds (a pause, a volume refill) stays in that request.
final class TranscodedStream: AudioDecoder {
  /// Opens one request of the stream.
  typealias Opener = (URL) throws -> any AudioDecoder

  let name: String
  private let url: URL
  private let seeking: StreamSeeking
  private let knownDuration: Double?
  private let open: Opener
  private var inner: any AudioDecoder
  /// The second the current request began at.
  private(set) var offset = 0.0

  /// Opens `track`'s HTTP(S) stream; a transcoded one (``Track/seeking`` set) is wrapped so
  /// it seeks as the server allows.
  static func open(
    _ track: Track, news: @escaping @Sendable (StreamNews) -> Void,
    shouldStop: @escaping () -> Bool
  ) throws -> any AudioDecoder {
    let first = try AudioDecoders.open(url: track.location, news: news, shouldStop: shouldStop)
    guard let seeking = track.seeking else { return first }
    return TranscodedStream(
      url: track.location, first: first, seeking: seeking, duration: track.duration,
      open: { try AudioDecoders.open(url: $0, news: news, shouldStop: { false }) })
  }

  /// The stream at `url`, first request `first`, seeking as `seeking` says; `duration` is
  /// the catalog's length, if known.
  init(
    url: URL, first: any AudioDecoder, seeking: StreamSeeking, duration: Double?,
    open: @escaping Opener
  ) {
    self.url = url
    self.name = first.name
    self.inner = first
    self.seeking = seeking
    self.knownDuration = duration
    self.open = open
  }

  var format: PCMFormat { inner.format }
  var duration: Double? { knownDuration ?? inner.duration.map { $0 + offset } }
  var gaplessTrim: (start: Int, end: Int) { inner.gaplessTrim }
  var isAtEnd: Bool { inner.isAtEnd }
  var position: Double { offset + inner.position }

  func read(into buffer: UnsafeMutableRawBufferPointer, shouldStop: () -> Bool) throws -> Int {
    try inner.read(into: buffer, shouldStop: shouldStop)
  }

  /// Moves to `seconds`: within the current request when it is a step back into what was
  /// decoded, else by a new request at the whole second (`reRequest`), else it throws
  /// ``AudioError/notSeekable(name:reason:)`` (`refused`).
  @discardableResult
  func seek(to seconds: Double) throws -> Double {
    let target = max(0, seconds)
    if target >= offset, target <= position, let reached = try? inner.seek(to: target - offset) {
      return offset + reached
    }
    switch seeking {
    case .refused(let reason):
      throw AudioError.notSeekable(name: name, reason: reason)
    case .reRequest(let parameter):
      let whole = target.rounded(.down)
      let next = try open(Self.url(url, parameter: parameter, seconds: whole))
      inner.close()
      inner = next
      offset = whole
      return whole
    }
  }

  func close() { inner.close() }

  /// `url` with `parameter` set to `seconds` (whole), or removed at 0.
  static func url(_ url: URL, parameter: String, seconds: Double) -> URL {
    guard var parts = URLComponents(url: url, resolvingAgainstBaseURL: false) else { return url }
    var items = (parts.queryItems ?? []).filter { $0.name != parameter }
    if seconds > 0 { items.append(URLQueryItem(name: parameter, value: String(Int(seconds)))) }
    parts.queryItems = items.isEmpty ? nil : items
    return parts.url ?? url
  }
}
