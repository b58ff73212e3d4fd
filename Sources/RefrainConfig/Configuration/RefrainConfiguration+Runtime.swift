import Foundation
import RefrainCore
import RefrainTags

/// What start-up code needs from the configuration, with the environment's overrides.
extension RefrainConfiguration {
  /// The environment variable that overrides `online.deezer_url`.
  public static let deezerURLVariable = "REFRAIN_DEEZER_URL"
  /// The environment variable that overrides `online.lrclib_url`.
  public static let lrclibURLVariable = "REFRAIN_LRCLIB_URL"

  /// The online catalog's root: `REFRAIN_DEEZER_URL` when it holds an `http(s)` URL, else
  /// `online.deezer_url`; `nil` (every call says how to configure it) with neither.
  ///
  /// An empty or invalid variable counts as unset, so the file's address still works.
  public func deezerURL(environment: [String: String]) -> URL? {
    environment[Self.deezerURLVariable].flatMap(Self.serviceURL) ?? deezerURL
  }

  /// The lyrics service's root: `REFRAIN_LRCLIB_URL` when set (empty or invalid is off),
  /// else `online.lrclib_url`.
  public func lrclibURL(environment: [String: String]) -> URL? {
    environment[Self.lrclibURLVariable].map(Self.serviceURL) ?? lrclibURL
  }

  /// The PulseAudio server: `PULSE_SERVER` when set, else `audio.pulse_server`.
  public func pulseServer(environment: [String: String]) -> String? {
    environment["PULSE_SERVER"].flatMap { $0.isEmpty ? nil : $0 } ?? pulseServer
  }

  /// The environment variable that overrides `audio.buffer_ms`.
  public static let bufferVariable = "REFRAIN_BUFFER_MS"

  /// The PulseAudio buffer target in seconds: `REFRAIN_BUFFER_MS` (clamped to 20–2000) when
  /// it is a number, else `audio.buffer_ms`.
  public func bufferTarget(environment: [String: String]) -> Double {
    guard let text = environment[Self.bufferVariable], let ms = Double(text), ms.isFinite else {
      return bufferTarget
    }
    return min(2, max(0.02, ms / 1000))
  }

  /// A resolver asking the configured sources in the configured order.
  ///
  /// `cache` and `online` stand for the `cache` and `online` sources and are left out when
  /// `nil`. Online answers are stored in `cache` only when `cache` is one of the sources.
  public func lyricsResolver(
    cache: LyricsCache?, online: (any LyricsSource)?,
    timeout: Double = LyricsResolver.defaultTimeout
  ) -> LyricsResolver {
    var sources: [any LyricsSource] = []
    for kind in lyricsSources {
      switch kind {
      case .sidecar: sources.append(SidecarLyricsSource())
      case .embedded: sources.append(EmbeddedLyricsSource())
      case .cache: if let cache { sources.append(CachedLyricsSource(cache: cache)) }
      case .online: if let online { sources.append(online) }
      }
    }
    let storesAnswers = lyricsSources.contains(.cache)
    return LyricsResolver(
      sources: sources, cache: storesAnswers ? cache : nil, timeout: timeout)
  }

  /// `result` with `lyrics.offset_ms` added to the document's own `[offset:]`.
  public func applyingLyricOffset(to result: LyricsResult) -> LyricsResult {
    guard lyricOffsetMs != 0, case .found(var document, let source) = result else {
      return result
    }
    document.offsetMs += lyricOffsetMs
    return .found(document, source: source)
  }

  /// An `http(s)` URL with a host, or `nil` (off) for anything else.
  static func serviceURL(_ text: String) -> URL? {
    let trimmed = text.trimmingCharacters(in: .whitespaces)
    guard let url = URL(string: trimmed), let scheme = url.scheme?.lowercased(),
      scheme == "http" || scheme == "https", url.host?.isEmpty == false
    else { return nil }
    return url
  }
}

extension ConfigLoadResult {
  /// A one-line notice for the status bar when the file had problems, else `nil`.
  public var notice: String? {
    guard let first = problems.first else { return nil }
    let place = first.line.map { "line \($0)" } ?? "the file"
    let more = problems.count > 1 ? " (and \(problems.count - 1) more)" : ""
    let what = first.key ?? "syntax error"
    return ConfigProblem.printable(
      "config.toml \(place): \(what)\(more) — see `refrain config --check`")
  }
}
