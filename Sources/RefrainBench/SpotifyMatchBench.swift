import Foundation
import RefrainCatalog
import RefrainCore
import RefrainSpotify
import RefrainTags

/// `refrain-bench spotify-match`: matching imported Spotify tracks against a local library,
/// both synthetic and seeded, in a library file of its own.
///
/// A third of the imported tracks share an ISRC with a local file, a third share only an
/// artist, a title (spelled differently: case, accents, a "(Remastered)" suffix) and a
/// duration within 3 s, and a third match nothing. The time is
/// ``SpotifyMatcher/matchLocally()``: reading both sides from SQLite, matching, and storing
/// every result.
enum SpotifyMatchBench {
  static func run(local: Int, imported: Int, asJSON: Bool) throws {
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("refrain-bench-match-\(getpid())")
    try? FileManager.default.removeItem(at: folder)
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let store = try LibraryStore(fileURL: folder.appendingPathComponent("library.sqlite"))

    var files: [(path: String, info: LocalTrackInfo)] = []
    for number in 0..<local {
      let isrc = number % 2 == 0 ? String(format: "QZBEN%07d", number) : nil
      files.append(
        (
          "/music/\(number / 500)/\(number).mp3",
          LocalTrackInfo(
            title: "Song Number \(number)", artist: "Artist \(number % 700)",
            album: "Album \(number / 12)", duration: 150 + Double(number % 120), isrc: isrc)
        ))
    }
    try LocalLibraryScanner(store: store, tagReader: ID3TagReader(), batchSize: 2000)
      .importTracks(files)

    var tracks: [CatalogTrack] = []
    var expectedISRC = 0
    for number in 0..<imported {
      let id = String(format: "bench%017d", number)
      switch number % 3 {
      case 0:  // The same recording, tagged with its ISRC locally (even local numbers).
        let target = (number * 2) % max(local, 1)
        let even = target - target % 2
        tracks.append(
          CatalogTrack(
            id: id, provider: "spotify", title: "Song Number \(even)",
            artist: "Artist \(even % 700)", duration: 150 + Double(even % 120),
            isrc: String(format: "QZBEN%07d", even)))
        expectedISRC += 1
      case 1:  // Only the title, artist and duration agree (odd local numbers: no ISRC).
        let target = (number * 2 + 1) % max(local, 1)
        tracks.append(
          CatalogTrack(
            id: id, provider: "spotify", title: "song NUMBER \(target) (Remastered 2011)",
            artist: "Ártist \(target % 700), Guest", duration: 151.5 + Double(target % 120),
            isrc: String(format: "QZOTH%07d", number)))
      default:  // Nothing local.
        tracks.append(
          CatalogTrack(
            id: id, provider: "spotify", title: "Unknown \(number)", artist: "Nobody",
            duration: 200))
      }
    }
    try store.spotifyImport.replaceSpotifyLikes(with: tracks)

    let matcher = SpotifyMatcher(store: store, previews: nil)
    let start = nowNs()
    let (summary, lookups) = try matcher.matchLocally()
    let seconds = Double(nowNs() - start) / 1e9
    let result: KeyValuePairs<String, Any?> = [
      "local": local, "imported": imported, "by_isrc": expectedISRC,
      "by_title": summary.matchedLocal - expectedISRC,
      "unmatched": summary.tracks - summary.matchedLocal, "preview_lookups_left": lookups.count,
      "seconds": (seconds * 1e4).rounded() / 1e4,
    ]
    if asJSON {
      print(json(result))
    } else {
      for (key, value) in result { print("\(key): \(value ?? "-")") }
    }
  }
}
