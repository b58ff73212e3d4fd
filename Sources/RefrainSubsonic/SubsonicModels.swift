import Foundation

/// A string a server may send as a JSON string or number (ids, counts written as text).
struct SubsonicText: Decodable, Sendable, Hashable {
  var value: String

  init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    if let text = try? container.decode(String.self) {
      value = text
    } else if let number = try? container.decode(Int64.self) {
      value = String(number)
    } else {
      value = String(try container.decode(Double.self))
    }
  }
}

/// A number a server may send as a JSON number or string.
struct SubsonicNumber: Decodable, Sendable, Hashable {
  var value: Double

  init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    if let number = try? container.decode(Double.self) {
      value = number
    } else {
      value = Double(try container.decode(String.self)) ?? 0
    }
  }
}

/// A song (`Child` in the Subsonic API).
struct SubsonicSong: Decodable, Sendable, Hashable {
  var id: SubsonicText
  var title: String?
  var album: String?
  var albumId: SubsonicText?
  var artist: String?
  var artistId: SubsonicText?
  var track: SubsonicNumber?
  var year: SubsonicNumber?
  var duration: SubsonicNumber?
  var coverArt: SubsonicText?
  var suffix: String?
  var contentType: String?
  /// The recording's ISRCs (OpenSubsonic).
  var isrc: SubsonicStrings?
  /// When the user starred it (absent when not starred).
  var starred: String?
  var isDir: Bool?
}

/// An album (`AlbumID3`), with its songs in `getAlbum`.
struct SubsonicAlbum: Decodable, Sendable, Hashable {
  var id: SubsonicText
  var name: String?
  var title: String?
  var artist: String?
  var artistId: SubsonicText?
  var coverArt: SubsonicText?
  var songCount: SubsonicNumber?
  var year: SubsonicNumber?
  var starred: String?
  var song: [SubsonicSong]?
}

/// An artist (`ArtistID3`), with its albums in `getArtist`.
struct SubsonicArtist: Decodable, Sendable, Hashable {
  var id: SubsonicText
  var name: String
  var coverArt: SubsonicText?
  var albumCount: SubsonicNumber?
  var album: [SubsonicAlbum]?
}

/// A playlist, with its songs (`entry`) in `getPlaylist`.
struct SubsonicPlaylist: Decodable, Sendable, Hashable {
  var id: SubsonicText
  var name: String
  var owner: String?
  var songCount: SubsonicNumber?
  var coverArt: SubsonicText?
  var entry: [SubsonicSong]?
}

/// `search3`.
struct SubsonicSearchBody: Decodable, Sendable {
  struct Result: Decodable, Sendable {
    var artist: [SubsonicArtist]?
    var album: [SubsonicAlbum]?
    var song: [SubsonicSong]?
  }
  var searchResult3: Result?
}

/// `getAlbumList2`.
struct SubsonicAlbumListBody: Decodable, Sendable {
  struct List: Decodable, Sendable {
    var album: [SubsonicAlbum]?
  }
  var albumList2: List?
}

/// `getPlaylists`.
struct SubsonicPlaylistsBody: Decodable, Sendable {
  struct List: Decodable, Sendable {
    var playlist: [SubsonicPlaylist]?
  }
  var playlists: List?
}

/// `getAlbum`.
struct SubsonicAlbumBody: Decodable, Sendable {
  var album: SubsonicAlbum
}

/// `getArtist`.
struct SubsonicArtistBody: Decodable, Sendable {
  var artist: SubsonicArtist
}

/// `getPlaylist`.
struct SubsonicPlaylistBody: Decodable, Sendable {
  var playlist: SubsonicPlaylist
}

/// `getSong`.
struct SubsonicSongBody: Decodable, Sendable {
  var song: SubsonicSong
}

/// `createPlaylist`: the new playlist from API 1.14 on, nothing before.
struct SubsonicCreatedBody: Decodable, Sendable {
  var playlist: SubsonicPlaylist?
}

/// `getStarred2`.
struct SubsonicStarredBody: Decodable, Sendable {
  struct Lists: Decodable, Sendable {
    var song: [SubsonicSong]?
    var album: [SubsonicAlbum]?
  }
  var starred2: Lists?
}
