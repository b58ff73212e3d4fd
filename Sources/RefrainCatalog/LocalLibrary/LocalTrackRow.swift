import RefrainCore
import RefrainTags

/// What the index writes for one file: cleaned tags, grouping keys and CJK grams.
///
/// The scanner builds these on the threads that read the tags, so the one thread that writes
/// the database only binds values (see ``LocalLibraryIndex``).
struct LocalTrackRow: Sendable {
  /// The file it describes.
  var file: FoundFile
  /// The title tag, else the file name without its extension.
  var title: String
  /// ``LocalText/key(_:)`` of the title.
  var titleKey: String
  var artist: String?
  var artistKey: String?
  var album: String?
  var albumArtist: String?
  /// Who the album is filed under (the album artist, else the artist) and that name's key.
  var owner: String?
  var ownerKey: String?
  /// The album's grouping key (owner key, U+001F, title key) and its title key.
  var albumKey: String?
  var albumTitleKey: String?
  var trackNumber: Int?
  /// Positive, or `nil`.
  var discNumber: Int?
  var year: Int?
  /// Seconds; `nil` unless finite and positive.
  var duration: Double?
  /// The ISRC in upper case, when the tag holds a well-formed one (12 letters and digits).
  var isrc: String?
  /// ``CJKGrams`` of the title and of the artist and album, for the track's word table.
  var titleGrams: String?
  var otherGrams: String?
  /// ``CJKGrams`` of the album title and of its owner, for the album's word table.
  var albumTitleGrams: String?
  var ownerGrams: String?
  /// Why the file will not play though it is indexed (ALAC), for the scan report.
  var unplayable: SkippedFile?

  /// Cleans `info` and works out the keys and grams.
  init(_ info: LocalTrackInfo, file: FoundFile) {
    self.file = file
    title = LocalText.clean(info.title) ?? LocalText.fileTitle(file.path)
    titleKey = LocalText.key(title)
    artist = LocalText.clean(info.artist)
    artistKey = artist.map(LocalText.key)
    album = LocalText.clean(info.album)
    albumArtist = LocalText.clean(info.albumArtist)
    trackNumber = info.trackNumber
    discNumber = info.discNumber.flatMap { (1...999).contains($0) ? $0 : nil }
    year = info.year
    duration = info.duration.flatMap { $0.isFinite && $0 > 0 ? $0 : nil }
    isrc = info.isrc.flatMap(ISRC.normalized)
    unplayable = info.unplayable
    titleGrams = CJKGrams.grams([title])
    otherGrams = CJKGrams.grams([artist, album])
    guard let album else { return }
    owner = albumArtist ?? artist
    ownerKey = albumArtist.map(LocalText.key) ?? artistKey
    let albumTitleKey = LocalText.key(album)
    self.albumTitleKey = albumTitleKey
    albumKey = (ownerKey ?? "") + "\u{1F}" + albumTitleKey
    albumTitleGrams = CJKGrams.grams([album])
    ownerGrams = CJKGrams.grams([owner])
  }
}
