import Foundation

/// What Refrain knows about a track when it looks for its lyrics.
///
/// The caller fills in the embedded fields from the file's ID3 tags (USLT and SYLT); the
/// lyrics sources only read them.
public struct LyricsQuery: Sendable {
  /// The track title.
  public var title: String
  /// The performing artist, if known.
  public var artist: String?
  /// The album, if known.
  public var album: String?
  /// The duration in seconds, if known.
  public var duration: Double?
  /// The local audio file, if the track is one; sidecar `.lrc` files sit next to it.
  public var fileURL: URL?
  /// The text of the file's USLT frame (unsynchronised lyrics, often LRC-formatted).
  public var embeddedText: String?
  /// The lines of the file's SYLT frame (synchronised lyrics), as start time and text.
  public var embeddedSynced: [(ms: Int, text: String)]?

  /// Creates a query.
  public init(
    title: String, artist: String? = nil, album: String? = nil, duration: Double? = nil,
    fileURL: URL? = nil, embeddedText: String? = nil,
    embeddedSynced: [(ms: Int, text: String)]? = nil
  ) {
    self.title = title
    self.artist = artist
    self.album = album
    self.duration = duration
    self.fileURL = fileURL
    self.embeddedText = embeddedText
    self.embeddedSynced = embeddedSynced
  }

  /// Creates a query for `track`; its location is the file URL when it is a local file.
  public init(
    track: Track, embeddedText: String? = nil, embeddedSynced: [(ms: Int, text: String)]? = nil
  ) {
    self.init(
      title: track.title, artist: track.artist, album: track.album, duration: track.duration,
      fileURL: track.location.isFileURL ? track.location : nil, embeddedText: embeddedText,
      embeddedSynced: embeddedSynced)
  }
}
