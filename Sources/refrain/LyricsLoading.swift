import Foundation
import RefrainAudio
import RefrainCatalog
import RefrainConfig
import RefrainCore

/// Builds the lyrics lookup Refrain uses: the catalog's own file, then the resolver's
/// sources (sidecar `.lrc`, ID3 USLT, the cache, the online service).
enum LyricsLoading {
  /// A loader for `environment` (XDG paths, `REFRAIN_LRCLIB_URL`) and config.toml's
  /// `[lyrics]` sources, order and offset, and `online.lrclib_url`. Fetched lyrics are
  /// cached in `library` when there is one, else in files under `$XDG_CACHE_HOME`.
  static func makeLoader(
    environment: [String: String] = ProcessInfo.processInfo.environment,
    configuration: RefrainConfiguration = RefrainConfiguration(),
    library: LibraryStore? = nil
  ) -> @Sendable (Track) async -> LyricsResult {
    let cache =
      library.map { LyricsCache(storage: LibraryLyricsCache(store: $0)) }
      ?? LyricsCache(directory: LyricsCache.defaultDirectory(environment: environment))
    let online = configuration.lrclibURL(environment: environment).map {
      LRCLIBLyricsSource(baseURL: $0)
    }
    let resolver = configuration.lyricsResolver(cache: cache, online: online)
    return { track in
      if let url = track.lyricsURL, let document = try? LyricsDocument.load(from: url) {
        return configuration.applyingLyricOffset(to: .found(document, source: .sidecar))
      }
      var embedded: String?
      if track.location.isFileURL {
        embedded = (try? MP3Decoder(path: track.location.path))?.tags.lyrics
      }
      let result = await resolver.resolve(LyricsQuery(track: track, embeddedText: embedded))
      return configuration.applyingLyricOffset(to: result)
    }
  }
}
