import Foundation

/// A song in FLO's JSON format: `{singer, album, title, duration, image, file, lyrics}`.
///
/// `lyrics` is one string of `[mm:ss:SSS]text` lines joined by `\n`. Missing text fields
/// decode as `""`, and `duration` may be a whole or fractional number of seconds; a missing,
/// negative or absurdly large duration (a billion seconds or more) decodes as 0.
public struct FLOSong: Sendable, Equatable, Codable {
  /// The performing artist.
  public var singer: String
  /// The album title.
  public var album: String
  /// The song title.
  public var title: String
  /// The length in whole seconds, from 0 (unknown) to below a billion.
  public var duration: Int
  /// The cover image URL, as written in the JSON.
  public var image: String
  /// The audio file URL, as written in the JSON.
  public var file: String
  /// The lyrics, `[mm:ss:SSS]text` lines joined by `\n`.
  public var lyrics: String

  /// Creates a FLO song.
  public init(
    singer: String, album: String, title: String, duration: Int, image: String, file: String,
    lyrics: String
  ) {
    self.singer = singer
    self.album = album
    self.title = title
    self.duration = duration
    self.image = image
    self.file = file
    self.lyrics = lyrics
  }

  private enum CodingKeys: String, CodingKey {
    case singer, album, title, duration, image, file, lyrics
  }

  /// Decodes a song; only `lyrics` is required.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    singer = try container.decodeIfPresent(String.self, forKey: .singer) ?? ""
    album = try container.decodeIfPresent(String.self, forKey: .album) ?? ""
    title = try container.decodeIfPresent(String.self, forKey: .title) ?? ""
    image = try container.decodeIfPresent(String.self, forKey: .image) ?? ""
    file = try container.decodeIfPresent(String.self, forKey: .file) ?? ""
    lyrics = try container.decode(String.self, forKey: .lyrics)
    let seconds = (try container.decodeIfPresent(Double.self, forKey: .duration) ?? 0).rounded()
    duration = (0..<1e9).contains(seconds) ? Int(seconds) : 0
  }

  /// The song's lyrics as a document, with `ar`, `al` and `ti` tags taken from the song
  /// when the lyrics do not set them.
  public var lyricsDocument: LyricsDocument {
    var document = LRCParser.parse(lyrics)
    for (key, value) in [("ar", singer), ("al", album), ("ti", title)]
    where !value.isEmpty && document.tags[key] == nil {
      document.tags[key] = value
    }
    return document
  }
}
