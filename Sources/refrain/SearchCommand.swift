import ArgumentParser
import Foundation
import RefrainCatalog
import RefrainConfig
import RefrainCore

/// `refrain search`: searches a catalog and prints the results.
struct SearchCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "search",
    abstract: "Search a catalog for tracks, albums, artists or playlists.",
    discussion: """
      With --json, stdout is one JSON array; each result is \
      {"kind","id","title","artist","album","duration","playable"} with absent fields left out \
      (for artists and playlists, title is the name). Tracks that cannot be played add \
      "reason"; tracks imported from Spotify add "match": "local", "preview" or null.
      """)

  @Argument(help: "What to search for (several words are searched together).")
  var query: [String]

  @Option(
    help:
      "The catalog: demo, local (your scanned folders), deezer, spotify (your import) or subsonic (your server)."
  )
  var provider: RefrainConfiguration.Provider = .demo

  @Option(help: "What to look for: track, album, artist, playlist or lyric (a line of the lyrics).")
  var type = "track"

  @Option(help: "At most this many results.")
  var limit = 50

  @Flag(help: "Print the results as one JSON array.")
  var json = false

  func validate() throws {
    guard SearchKind(rawValue: type) != nil else {
      throw ValidationError("--type takes track, album, artist, playlist or lyric")
    }
    guard limit > 0 else { throw ValidationError("--limit takes a positive number") }
  }

  func run() throws {
    let kind = SearchKind(rawValue: type) ?? .track
    let text = query.joined(separator: " ")
    let page: Page<CatalogItem>
    do {
      let environment = ProcessInfo.processInfo.environment
      let configuration = RefrainConfiguration.load(environment: environment).configuration
      let catalog = try makeProvider(
        provider, configuration: configuration, environment: environment)
      let limit = limit
      page = try waitFor { try await catalog.search(text, kind: kind, offset: 0, limit: limit) }
    } catch {
      Console.error("refrain search: \(error)")
      throw ExitCode(1)
    }
    if provider == .local, page.items.isEmpty, let library = try? LibraryStore.openDefault(),
      (try? LocalCatalogProvider(store: library).trackCount()) == 0
    {
      Console.error(
        "refrain search: your library is empty; index your music with `refrain scan DIR`")
    }
    if json {
      Console.line(JSONOutput.line(page.items.map(SearchResult.init)))
    } else if page.items.isEmpty {
      Console.line("(no results)")
    } else {
      for item in page.items { Console.line(Self.textLine(item)) }
    }
  }

  /// One result as a line of terminal text, with control characters removed.
  static func textLine(_ item: CatalogItem) -> String {
    var parts = [item.title]
    switch item {
    case .track(let track):
      parts += [track.artist, track.album].compactMap { $0 }
      let length = ClockText.minutesSeconds(track.duration, rounding: .toNearestOrAwayFromZero)
      if !length.isEmpty { parts.append(length) }
      if !track.isPlayable { parts.append("(unplayable)") }
    case .album(let album):
      parts += [album.artist, album.year.map(String.init)].compactMap { $0 }
    case .artist(let artist):
      if let count = artist.albumCount { parts.append("\(count) albums") }
    case .playlist(let playlist):
      if let count = playlist.trackCount { parts.append("\(count) tracks") }
    case .genre:
      break
    case .lyric(let match):
      parts = [
        "“\(match.text)”", match.track.title, match.track.artist,
        match.ms.map { ClockText.minutesSeconds(Double($0) / 1000) },
      ].compactMap { $0 }
    }
    let line = parts.map(TerminalSanitizer.clean).joined(separator: " · ")
    return item.kind.padding(toLength: 9, withPad: " ", startingAt: 0) + line
  }
}

/// One result of `refrain search --json`: `kind`, `id`, `title`, and `artist`, `album`,
/// `duration`, `playable` where they apply (absent fields are left out).
struct SearchResult: Encodable {
  var kind: String
  var id: String
  var title: String
  var artist: String?
  var album: String?
  var duration: Double?
  var playable: Bool?
  /// For an imported Spotify track: `local`, `preview`, or `null` when nothing plays it.
  var match: String??
  /// Why the track cannot be played, when it cannot.
  var reason: String?
  /// For a lyric: the line's place in the lyrics, its time (`null` for plain lyrics), its text.
  var lineIndex: Int?
  var ms: Int??
  var text: String?

  enum CodingKeys: String, CodingKey {
    case kind, id, title, artist, album, duration, playable, match, reason, ms, text
    case lineIndex = "line_index"
  }

  init(_ item: CatalogItem) {
    kind = item.kind
    switch item {
    case .track(let track):
      id = track.id
      title = track.title
      artist = track.artist
      album = track.album
      duration = track.duration.map(JSONOutput.milliseconds)
      playable = track.isPlayable
      if track.provider == "spotify" { match = .some(track.match) }
      if !track.isPlayable { reason = track.unplayableReason }
    case .album(let album):
      id = album.id
      title = album.title
      artist = album.artist
    case .artist(let artist):
      id = artist.id
      title = artist.name
    case .playlist(let playlist):
      id = playlist.id
      title = playlist.title
      artist = playlist.owner
    case .genre(let genre):
      id = genre.id
      title = genre.name
    case .lyric(let lyric):
      id = lyric.track.id
      title = lyric.track.title
      artist = lyric.track.artist
      lineIndex = lyric.lineIndex
      ms = .some(lyric.ms)
      text = lyric.text
    }
  }
}
