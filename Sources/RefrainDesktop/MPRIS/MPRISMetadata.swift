import Foundation
import RefrainCore

/// The `Metadata` of the current track, as MPRIS and xesam name its fields.
public struct MPRISMetadata: Sendable, Equatable {
  /// `mpris:trackid` (see ``MPRISTrackID``).
  public var trackID: String
  /// `mpris:length` in µs, when known.
  public var length: Int64?
  /// `xesam:title`.
  public var title: String
  /// `xesam:artist`, a list (empty when unknown).
  public var artists: [String]
  /// `xesam:album`.
  public var album: String?
  /// `xesam:albumArtist`, a list.
  public var albumArtists: [String]
  /// `xesam:url`: the file or stream.
  public var url: String
  /// `mpris:artUrl`: the `file://` URL of the cached cover.
  public var artURL: String?
  /// `xesam:asText`: the lyrics as plain text, one line each.
  public var lyrics: String?

  /// The metadata of `track`: the queue's fields first, gaps filled from `details` (tags
  /// read from the file), the decoder's `duration` when known, and `lyrics` as plain text.
  public init(
    track: Track, duration: Double?, details: TrackDetails? = nil, lyrics: LyricsDocument? = nil
  ) {
    trackID = MPRISTrackID.path(for: track)
    let seconds = duration ?? track.duration
    length = seconds.flatMap { $0.isFinite && $0 >= 0 ? Self.microseconds($0) : nil }
    // A queue that knows only the file name takes the title from the tag.
    let namedByFile = track.location.isFileURL && track.artist == nil && track.album == nil
    title = (namedByFile ? details?.title : nil) ?? track.title
    artists = Self.list(track.artist ?? details?.artist)
    album = Self.nonEmpty(track.album ?? details?.album)
    albumArtists = Self.list(details?.albumArtist)
    url = track.location.absoluteString
    artURL = details?.coverFile.map { $0.absoluteString }
    self.lyrics = lyrics.flatMap(Self.plainText)
  }

  /// The lyrics as plain text, one line per lyric line; `nil` when there are none.
  public static func plainText(_ document: LyricsDocument) -> String? {
    let text = document.lines.map(\.text).joined(separator: "\n")
    return text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty ? nil : text
  }

  /// Seconds as whole µs, for `Position`, `Seeked` and `mpris:length`.
  public static func microseconds(_ seconds: Double) -> Int64 {
    guard seconds.isFinite else { return 0 }
    return Int64((seconds * 1_000_000).rounded())
  }

  private static func nonEmpty(_ text: String?) -> String? {
    guard let text, !text.isEmpty else { return nil }
    return text
  }

  private static func list(_ text: String?) -> [String] {
    nonEmpty(text).map { [$0] } ?? []
  }
}
