import Foundation
import RefrainCatalog
import RefrainConfig
import RefrainCore
import RefrainLRCLIB
import RefrainSubsonic

/// Builds the lyrics lookup Refrain uses: the catalog's own file, for a Subsonic server's
/// track the synced lyrics cached for it (the user's own timing) and then the server's,
/// then the resolver's sources (sidecar `.lrc`, the file's ID3 USLT
/// and SYLT, the cache, the online service).
enum LyricsLoading {
  /// The lyrics cache: in `library` when there is one, else files under `$XDG_CACHE_HOME`.
  static func cache(environment: [String: String], library: LibraryStore?) -> LyricsCache {
    library.map { LyricsCache(storage: LibraryLyricsCache(store: $0)) }
      ?? LyricsCache(directory: LyricsCache.defaultDirectory(environment: environment))
  }

  /// A loader for `environment` (XDG paths, `REFRAIN_LRCLIB_URL`) and config.toml's
  /// `[lyrics]` sources, order and offset, and `online.lrclib_url`. Fetched lyrics are
  /// cached in `library` when there is one, else in files under `$XDG_CACHE_HOME`.
  static func makeLoader(
    environment: [String: String] = ProcessInfo.processInfo.environment,
    configuration: RefrainConfiguration = RefrainConfiguration(),
    library: LibraryStore? = nil
  ) -> @Sendable (Track) async -> LyricsResult {
    let cache = self.cache(environment: environment, library: library)
    let online = configuration.lrclibURL(environment: environment).map {
      LRCLIBLyricsSource(baseURL: $0)
    }
    let resolver = configuration.lyricsResolver(cache: cache, online: online)
    let server = SubsonicAccountFile.standard(environment: environment).load().map {
      SubsonicLyricsSource(account: $0)
    }
    return { track in
      if let url = track.lyricsURL, let document = try? LyricsDocument.load(from: url) {
        return configuration.applyingLyricOffset(to: .found(document, source: .sidecar))
      }
      // A track of the user's Subsonic server: synced lyrics the user timed for it
      // (tap-to-sync saves a streamed track's to the cache) come first, then the server's.
      if let server, server.isServerSong(track),
        case .hit(.lyrics(let timed)) = cache.lookup(LyricsQuery(track: track)), timed.isSynced
      {
        return configuration.applyingLyricOffset(to: .found(timed, source: .cache))
      }
      if let server, let document = await server.lyrics(for: track) {
        return configuration.applyingLyricOffset(to: .found(document, source: .online))
      }
      let result = await resolver.resolve(LyricsQuery(track: track))
      return configuration.applyingLyricOffset(to: result)
    }
  }
}
