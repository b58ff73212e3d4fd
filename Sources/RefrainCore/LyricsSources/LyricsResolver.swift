import Foundation

/// Finds a track's lyrics by asking its sources in order; never throws and never hangs.
///
/// The standard order is sidecar `.lrc`, embedded tags, the cache, the online service, and
/// last the plain text any of them offered:
/// - synced lyrics from any source end the search;
/// - plain lyrics from a local source (sidecar, tags) are kept while the later sources are
///   asked for synced ones, and win over plain lyrics from the cache or the service;
/// - any answer from the cache or the service (lyrics or instrumental) ends the search, so a
///   track found online once needs no network again;
/// - online answers are stored in the cache;
/// - errors, time-outs and misses become the reasons of `.notFound`.
///
/// The whole lookup has one time limit. Callers await `resolve` off the audio path; a slow or
/// absent network delays only the lyrics, never playback.
public struct LyricsResolver: Sendable {
  /// The default limit for a whole lookup, in seconds.
  public static let defaultTimeout: Double = 8

  /// The sources, in the order they are asked.
  public var sources: [any LyricsSource]
  /// Where answers from `.online` sources are stored; `nil` stores nothing.
  public var cache: LyricsCache?
  /// The limit for a whole lookup, in seconds.
  public var timeout: Double

  /// Creates a resolver that asks `sources` in order.
  public init(
    sources: [any LyricsSource], cache: LyricsCache? = nil, timeout: Double = defaultTimeout
  ) {
    self.sources = sources
    self.cache = cache
    self.timeout = timeout
  }

  /// Looks up the lyrics of the track that `query` describes.
  public func resolve(_ query: LyricsQuery) async -> LyricsResult {
    let clock = ContinuousClock()
    let start = clock.now
    var plainFallback: LyricsResult?
    var reasons: [String] = []

    for source in sources {
      let remaining = timeout - Self.inSeconds(start.duration(to: clock.now))
      if remaining <= 0 {
        reasons.append("gave up after \(Self.seconds(timeout)) before asking the \(source.kind)")
        break
      }
      let outcome = await LyricsDeadline.run(seconds: remaining) {
        try await source.lyrics(for: query)
      }
      switch outcome {
      case .value(let result):
        if source.kind == .online { store(result, for: query) }
        switch result {
        case .found(let document, _) where document.isSynced:
          return result
        case .found where source.kind == .sidecar || source.kind == .embedded:
          if plainFallback == nil { plainFallback = result }
        case .found, .instrumental:
          return plainFallback ?? result
        case .notFound(let sourceReasons):
          reasons += sourceReasons
        }
      case .failure(let error):
        reasons.append(String(describing: error))
      case .timedOut:
        reasons.append(
          "offline or slow: the \(source.kind) did not answer within \(Self.seconds(timeout))")
        return plainFallback ?? .notFound(reasons: reasons)
      case .cancelled:
        reasons.append("the lyrics lookup was cancelled")
        return plainFallback ?? .notFound(reasons: reasons)
      }
    }
    return plainFallback ?? .notFound(reasons: reasons)
  }

  /// Stores an online answer in the cache; a failed write only costs a later lookup.
  private func store(_ result: LyricsResult, for query: LyricsQuery) {
    guard let cache else { return }
    switch result {
    case .found(let document, _): try? cache.store(.lyrics(document), for: query)
    case .instrumental: try? cache.store(.instrumental, for: query)
    case .notFound: break
    }
  }

  /// A duration as a number of seconds.
  private static func inSeconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
  }

  /// A duration for messages: `8 s`, `0.5 s`.
  private static func seconds(_ value: Double) -> String {
    value == value.rounded() && abs(value) < 1e9
      ? "\(Int(value)) s" : String(format: "%.1f s", value)
  }
}
