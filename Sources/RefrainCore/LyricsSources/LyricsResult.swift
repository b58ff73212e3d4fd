import Foundation

/// Where a track's lyrics came from.
public enum LyricsSourceKind: String, Sendable, Hashable, Codable, CustomStringConvertible {
  /// A `.lrc` file next to the audio file, with the same base name.
  case sidecar
  /// The audio file's own tags: ID3 USLT (text) or SYLT (synchronised).
  case embedded
  /// Refrain's lyrics cache, which holds what the online service answered before.
  case cache
  /// An online lyrics service.
  case online

  public var description: String {
    switch self {
    case .sidecar: return "sidecar .lrc"
    case .embedded: return "embedded tags"
    case .cache: return "lyrics cache"
    case .online: return "online lyrics service"
    }
  }
}

/// What a lyrics source (or the resolver) found for a track.
public enum LyricsResult: Sendable, Equatable {
  /// Lyrics, synced or plain (see `LyricsDocument.isSynced`), and where they came from.
  case found(LyricsDocument, source: LyricsSourceKind)
  /// The source knows the track and says it has no words.
  case instrumental(source: LyricsSourceKind)
  /// No lyrics; each reason is a short sentence a status line can show.
  case notFound(reasons: [String])

  /// The lyrics, if any were found.
  public var document: LyricsDocument? {
    if case .found(let document, _) = self { return document }
    return nil
  }

  /// The source of the answer; `nil` when nothing was found.
  public var source: LyricsSourceKind? {
    switch self {
    case .found(_, let source), .instrumental(let source): return source
    case .notFound: return nil
    }
  }

  /// Why nothing was found; empty when something was.
  public var reasons: [String] {
    if case .notFound(let reasons) = self { return reasons }
    return []
  }
}
