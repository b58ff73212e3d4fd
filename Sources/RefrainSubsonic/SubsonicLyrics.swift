import Foundation
import RefrainCore
import RefrainHTTP

/// `getLyricsBySongId` (OpenSubsonic `songLyrics`): one entry per language.
struct SubsonicLyricsBody: Decodable, Sendable {
  struct List: Decodable, Sendable {
    var structuredLyrics: [SubsonicStructuredLyrics]?
  }
  var lyricsList: List?
}

/// One language of a song's lyrics, as OpenSubsonic's `structuredLyrics` gives it.
struct SubsonicStructuredLyrics: Decodable, Sendable, Hashable {
  struct Line: Decodable, Sendable, Hashable {
    /// Milliseconds from the start (synced lyrics only).
    var start: SubsonicNumber?
    var value: String
  }
  var lang: String?
  var synced: Bool
  /// Milliseconds; positive shows the lines sooner, as LRC's `[offset:]`.
  var offset: SubsonicNumber?
  var line: [Line]?
}

/// `getLyrics` (the classic API): plain text by artist and title.
struct SubsonicClassicLyricsBody: Decodable, Sendable {
  struct Lyrics: Decodable, Sendable {
    var value: String?
  }
  var lyrics: Lyrics?
}

/// Turns a server's lyrics into the document every other source gives, so highlight,
/// seek-by-line, translation lines and romanization work on them as on an LRC file.
enum SubsonicLyricsMapping {
  /// The lyrics as LRC text, read by ``LRCParser``; `nil` when there are none.
  ///
  /// The first synced language is the song's; the other synced languages become its
  /// translation lines (a line at the same time as another, as LRC writes them). The
  /// server's offset is kept as `[offset:]`. Without synced lyrics, the first plain ones.
  ///
  /// Every number is checked (``ServerNumber``): a line whose start is not a time within a
  /// track is left out, and an offset out of range counts as none; nothing traps.
  static func lrcText(_ entries: [SubsonicStructuredLyrics]) -> String? {
    let withLines = entries.filter { !($0.line ?? []).isEmpty }
    let synced = withLines.filter(\.synced)
    if let first = synced.first {
      var text = ""
      let offset = ServerNumber.offset(milliseconds: first.offset?.value) ?? 0
      if offset != 0 { text += "[offset:\(offset)]\n" }
      for entry in synced where entry.lang == first.lang || entry == first {
        text += lines(entry, shift: 0)
      }
      for entry in synced where entry.lang != first.lang && entry != first {
        // Each translation keeps its own offset, relative to the song's.
        text += lines(
          entry, shift: offset - (ServerNumber.offset(milliseconds: entry.offset?.value) ?? 0))
      }
      return text
    }
    guard let plain = withLines.first else { return nil }
    return (plain.line ?? []).map(\.value).joined(separator: "\n")
  }

  private static func lines(_ entry: SubsonicStructuredLyrics, shift: Int) -> String {
    (entry.line ?? []).compactMap { line in
      // Both are at most 7 days in ms, so the sum cannot overflow.
      guard let start = ServerNumber.milliseconds(line.start?.value ?? 0) else { return nil }
      let ms = max(0, start + shift)
      let text = line.value.replacingOccurrences(of: "\n", with: " ")
      return String(format: "[%02d:%02d.%03d]", ms / 60_000, ms / 1000 % 60, ms % 1000) + text
        + "\n"
    }.joined()
  }
}

/// The server's lyrics for its own tracks: OpenSubsonic `getLyricsBySongId` when the server
/// lists `songLyrics`, else the classic `getLyrics` by artist and title.
public struct SubsonicLyricsSource: Sendable {
  private let client: SubsonicClient
  private let structured: Bool

  /// A source for `account` over `http`.
  public init(account: SubsonicAccount, http: HTTPClient = SubsonicClient.httpClient()) {
    client = SubsonicClient(api: SubsonicAPI(account: account), http: http)
    structured = account.extensions.contains("songLyrics")
  }

  /// Whether `track` is one of the server's songs.
  public func isServerSong(_ track: Track) -> Bool {
    track.provider == SubsonicMapping.provider && SubsonicMapping.songID(track.id) != nil
  }

  /// The lyrics of `track` when it is one of the server's and the server has them; `nil`
  /// otherwise (another catalog's track, none on the server, or the server unreachable:
  /// the other sources are asked next).
  public func lyrics(for track: Track) async -> LyricsDocument? {
    guard track.provider == SubsonicMapping.provider, let id = SubsonicMapping.songID(track.id)
    else { return nil }
    if structured,
      let entries = try? await client.call(
        SubsonicLyricsBody.self, "getLyricsBySongId", [("id", id)]
      ).lyricsList?.structuredLyrics,
      let text = SubsonicLyricsMapping.lrcText(entries)
    {
      return LRCParser.parse(text)
    }
    guard let artist = track.artist,
      let value = try? await client.call(
        SubsonicClassicLyricsBody.self, "getLyrics", [("artist", artist), ("title", track.title)]
      ).lyrics?.value,
      !value.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty
    else { return nil }
    return LRCParser.parse(value)
  }
}
