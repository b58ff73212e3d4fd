import Foundation

// The parts of Deezer's JSON that Refrain reads; everything else is ignored.

/// An artist, as embedded in tracks and albums or listed on its own.
struct DeezerArtist: Decodable, Sendable {
  var id: DeezerID
  var name: String
  var pictureMedium: String?
  var albumCount: Int?

  private enum CodingKeys: String, CodingKey {
    case id, name
    case pictureMedium = "picture_medium"
    case albumCount = "nb_album"
  }

  init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    id = try container.decode(DeezerID.self, forKey: .id)
    name = try container.decode(String.self, forKey: .name)
    pictureMedium = container.lenientString(.pictureMedium)
    albumCount = container.lenientInt(.albumCount)
  }
}

/// The album a track points at (no tracks inside).
struct DeezerAlbumRef: Decodable, Sendable {
  var id: DeezerID
  var title: String
  var coverMedium: String?

  private enum CodingKeys: String, CodingKey {
    case id, title
    case coverMedium = "cover_medium"
  }

  init(id: DeezerID, title: String, coverMedium: String?) {
    self.id = id
    self.title = title
    self.coverMedium = coverMedium
  }

  init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    id = try container.decode(DeezerID.self, forKey: .id)
    title = try container.decode(String.self, forKey: .title)
    coverMedium = container.lenientString(.coverMedium)
  }
}

/// A track; `preview` is `""` when Deezer has no readable preview.
struct DeezerTrack: Decodable, Sendable {
  var id: DeezerID
  var title: String
  var duration: Int?
  var trackPosition: Int?
  var preview: String?
  var artist: DeezerArtist?
  var album: DeezerAlbumRef?

  private enum CodingKeys: String, CodingKey {
    case id, title, duration, preview, artist, album
    case trackPosition = "track_position"
  }

  init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    id = try container.decode(DeezerID.self, forKey: .id)
    title = try container.decode(String.self, forKey: .title)
    duration = container.lenientInt(.duration)
    trackPosition = container.lenientInt(.trackPosition)
    preview = container.lenientString(.preview)
    artist = try? container.decodeIfPresent(DeezerArtist.self, forKey: .artist)
    album = try? container.decodeIfPresent(DeezerAlbumRef.self, forKey: .album)
  }
}

/// An album in a list, or in full with its first tracks embedded (`/album/{id}`).
struct DeezerAlbum: Decodable, Sendable {
  var id: DeezerID
  var title: String
  var artist: DeezerArtist?
  var coverMedium: String?
  var releaseDate: String?
  var trackCount: Int?
  var tracks: DeezerList<DeezerTrack>?

  private enum CodingKeys: String, CodingKey {
    case id, title, artist, tracks
    case coverMedium = "cover_medium"
    case releaseDate = "release_date"
    case trackCount = "nb_tracks"
  }

  init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    id = try container.decode(DeezerID.self, forKey: .id)
    title = try container.decode(String.self, forKey: .title)
    artist = try? container.decodeIfPresent(DeezerArtist.self, forKey: .artist)
    coverMedium = container.lenientString(.coverMedium)
    releaseDate = container.lenientString(.releaseDate)
    trackCount = container.lenientInt(.trackCount)
    tracks = try container.decodeIfPresent(DeezerList<DeezerTrack>.self, forKey: .tracks)
  }

  /// The album as a track's back-reference.
  var reference: DeezerAlbumRef {
    DeezerAlbumRef(id: id, title: title, coverMedium: coverMedium)
  }
}

/// A playlist's owner.
struct DeezerUser: Decodable, Sendable {
  var id: DeezerID?
  var name: String
}

/// A playlist; the owner is `creator` on `/playlist/{id}` and `user` in lists.
struct DeezerPlaylist: Decodable, Sendable {
  var id: DeezerID
  var title: String
  var trackCount: Int?
  var pictureMedium: String?
  var creator: DeezerUser?
  var user: DeezerUser?

  private enum CodingKeys: String, CodingKey {
    case id, title, creator, user
    case trackCount = "nb_tracks"
    case pictureMedium = "picture_medium"
  }

  init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    id = try container.decode(DeezerID.self, forKey: .id)
    title = try container.decode(String.self, forKey: .title)
    trackCount = container.lenientInt(.trackCount)
    pictureMedium = container.lenientString(.pictureMedium)
    creator = try? container.decodeIfPresent(DeezerUser.self, forKey: .creator)
    user = try? container.decodeIfPresent(DeezerUser.self, forKey: .user)
  }
}

/// A genre.
struct DeezerGenre: Decodable, Sendable {
  var id: DeezerID
  var name: String
  var pictureMedium: String?

  private enum CodingKeys: String, CodingKey {
    case id, name
    case pictureMedium = "picture_medium"
  }

  init(id: DeezerID, name: String, pictureMedium: String? = nil) {
    self.id = id
    self.name = name
    self.pictureMedium = pictureMedium
  }

  init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    id = try container.decode(DeezerID.self, forKey: .id)
    name = try container.decode(String.self, forKey: .name)
    pictureMedium = container.lenientString(.pictureMedium)
  }
}

/// `/chart/0`: one list per kind (podcasts are ignored).
struct DeezerChart: Decodable, Sendable {
  var tracks: DeezerList<DeezerTrack>?
  var albums: DeezerList<DeezerAlbum>?
  var artists: DeezerList<DeezerArtist>?
  var playlists: DeezerList<DeezerPlaylist>?
}
