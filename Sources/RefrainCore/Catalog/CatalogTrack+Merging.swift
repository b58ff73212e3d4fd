import Foundation

extension CatalogTrack {
  /// This record updated by `newer`, a later record of the same track: every field `newer`
  /// knows replaces this one's, and no field it lacks is lost.
  ///
  /// Sources tell different amounts about one track. Spotify's Liked Songs and playlists
  /// send the full track (ISRC, album, cover); a saved album's track list sends a
  /// simplified one without the ISRC. Whichever arrives last, the merge keeps what either
  /// said, so the order of an import never erases an ISRC, a duration, a cover, a track
  /// number, an album or an artist.
  ///
  /// The title is always known and is `newer`'s. What plays the track (`streamURL`,
  /// `unplayableReason`, `match`) describes the moment, not the recording, and is
  /// `newer`'s as it is. A record of another track (another provider or ID) is returned
  /// as `newer`.
  public func merging(_ newer: CatalogTrack) -> CatalogTrack {
    guard newer.catalogID == catalogID else { return newer }
    var merged = newer
    merged.artist = newer.artist ?? artist
    merged.artistID = newer.artistID ?? artistID
    merged.album = newer.album ?? album
    merged.albumID = newer.albumID ?? albumID
    merged.duration = newer.duration ?? duration
    merged.trackNumber = newer.trackNumber ?? trackNumber
    merged.coverURL = newer.coverURL ?? coverURL
    merged.lyricsURL = newer.lyricsURL ?? lyricsURL
    merged.isrc = newer.isrc ?? isrc
    return merged
  }
}
