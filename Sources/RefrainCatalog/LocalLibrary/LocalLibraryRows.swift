import Foundation
import GRDB
import RefrainCore

/// Reads tracks, albums and artists of the local index as catalog values.
enum LocalLibraryRows {
  /// The provider name local items carry.
  static let provider = "local"

  /// The columns ``track(_:)`` needs, from `local_tracks t`.
  static let trackColumns = """
    t.id, t.path, t.title, t.artist, t.artist_id, t.album, t.album_id, t.duration,
    t.track_number, t.lyrics_path
    """

  /// The columns ``album(_:)`` needs, from `local_albums a`.
  static let albumColumns = """
    a.id, a.title, a.artist_name, a.artist_id, a.year,
    (SELECT COUNT(*) FROM local_tracks t WHERE t.album_id = a.id) AS track_count
    """

  /// The columns ``artist(_:)`` needs, from `local_artists r`.
  static let artistColumns = """
    r.id, r.name, (SELECT COUNT(*) FROM local_albums a WHERE a.artist_id = r.id) AS album_count
    """

  /// A local track: its ID is its absolute path, its stream a `file://` URL.
  static func track(_ row: Row) -> CatalogTrack {
    let path: String = row["path"]
    let artistID: Int64? = row["artist_id"]
    let albumID: Int64? = row["album_id"]
    let lyricsPath: String? = row["lyrics_path"]
    return CatalogTrack(
      id: path, provider: provider, title: row["title"], artist: row["artist"],
      artistID: artistID.map { String($0) }, album: row["album"],
      albumID: albumID.map { String($0) }, duration: row["duration"],
      trackNumber: row["track_number"], streamURL: URL(fileURLWithPath: path),
      lyricsURL: lyricsPath.map { URL(fileURLWithPath: $0) })
  }

  /// A local album.
  static func album(_ row: Row) -> AlbumSummary {
    let id: Int64 = row["id"]
    let artistID: Int64? = row["artist_id"]
    return AlbumSummary(
      id: String(id), provider: provider, title: row["title"], artist: row["artist_name"],
      artistID: artistID.map { String($0) }, year: row["year"], trackCount: row["track_count"])
  }

  /// A local artist.
  static func artist(_ row: Row) -> ArtistSummary {
    let id: Int64 = row["id"]
    return ArtistSummary(
      id: String(id), provider: provider, name: row["name"], albumCount: row["album_count"])
  }

  /// Tracks by row ID, in the order of `ids`.
  static func tracks(ids: [Int64], db: Database) throws -> [CatalogTrack] {
    try ordered(ids, select: "SELECT \(trackColumns) FROM local_tracks t", alias: "t", db, track)
  }

  /// Albums by row ID, in the order of `ids`.
  static func albums(ids: [Int64], db: Database) throws -> [AlbumSummary] {
    try ordered(ids, select: "SELECT \(albumColumns) FROM local_albums a", alias: "a", db, album)
  }

  /// Artists by row ID, in the order of `ids`.
  static func artists(ids: [Int64], db: Database) throws -> [ArtistSummary] {
    try ordered(
      ids, select: "SELECT \(artistColumns) FROM local_artists r", alias: "r", db, artist)
  }

  /// Fetches the rows whose ID is in `ids`, in that order.
  ///
  /// The IDs travel as one JSON array, so one prepared statement serves every page size.
  private static func ordered<Value>(
    _ ids: [Int64], select: String, alias: String, _ db: Database, _ make: (Row) -> Value
  ) throws -> [Value] {
    guard !ids.isEmpty else { return [] }
    let list = "[" + ids.map { String($0) }.joined(separator: ",") + "]"
    let statement = try db.cachedStatement(
      sql: """
        \(select) JOIN json_each(?) AS wanted ON \(alias).id = wanted.value
        ORDER BY wanted.key
        """)
    return try Row.fetchAll(statement, arguments: [list]).map(make)
  }

  /// A catalog ID as a row ID; throws ``CatalogError/notFound(_:)`` for anything else.
  static func rowID(_ id: String, kind: String) throws -> Int64 {
    guard let value = Int64(id) else { throw CatalogError.notFound("\(kind) \(id)") }
    return value
  }
}
