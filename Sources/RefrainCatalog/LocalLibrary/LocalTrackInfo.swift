import Foundation

/// What a tag reader learned about one MP3 file.
public struct LocalTrackInfo: Sendable, Hashable {
  /// The title tag, if present (the scanner falls back to the file name).
  public var title: String?
  /// The artist tag.
  public var artist: String?
  /// The album artist tag (TPE2); groups compilations under one album.
  public var albumArtist: String?
  /// The album tag.
  public var album: String?
  /// The track number (the part before a slash).
  public var trackNumber: Int?
  /// The year.
  public var year: Int?
  /// The duration in seconds, exact or estimated.
  public var duration: Double?

  /// Creates a value.
  public init(
    title: String? = nil, artist: String? = nil, albumArtist: String? = nil, album: String? = nil,
    trackNumber: Int? = nil, year: Int? = nil, duration: Double? = nil
  ) {
    self.title = title
    self.artist = artist
    self.albumArtist = albumArtist
    self.album = album
    self.trackNumber = trackNumber
    self.year = year
    self.duration = duration
  }
}

/// Reads the tags and duration of one MP3 file.
///
/// The scanner calls it from several threads at once. The composition root injects one backed
/// by the audio decoder; ``ID3TagReader`` is a pure-Swift reader that needs no decoder.
public protocol TagReader: Sendable {
  /// The file's tags; throws when the file cannot be read or is not MP3 audio.
  func readTags(atPath path: String) throws -> LocalTrackInfo
}

/// Why a tag reader gave up on a file.
public struct TagReadError: Error, Sendable, Equatable, CustomStringConvertible {
  /// A sentence for the scan report.
  public var reason: String

  /// Creates an error.
  public init(_ reason: String) { self.reason = reason }

  public var description: String { reason }
}
