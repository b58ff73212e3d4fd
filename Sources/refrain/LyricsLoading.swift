import Foundation
import RefrainAudio
import RefrainCatalog
import RefrainCore

/// Builds the lyrics lookup Refrain uses: the catalog's own file, then the resolver's
/// sources (sidecar `.lrc`, ID3 USLT, the cache, the online service).
enum LyricsLoading {
  /// A loader for `environment` (XDG paths and `REFRAIN_LRCLIB_URL`).
  static func makeLoader(environment: [String: String] = ProcessInfo.processInfo.environment)
    -> @Sendable (Track) async -> LyricsResult
  {
    let cache = LyricsCache(directory: LyricsCache.defaultDirectory(environment: environment))
    let online = LRCLIBLyricsSource.defaultBaseURL(environment: environment).map {
      LRCLIBLyricsSource(baseURL: $0)
    }
    let resolver = LyricsResolver.standard(cache: cache, online: online)
    return { track in
      if let url = track.lyricsURL, let document = try? LyricsDocument.load(from: url) {
        return .found(document, source: .sidecar)
      }
      var embedded: String?
      if track.location.isFileURL {
        embedded = (try? MP3Decoder(path: track.location.path))?.tags.lyrics
      }
      return await resolver.resolve(LyricsQuery(track: track, embeddedText: embedded))
    }
  }
}
