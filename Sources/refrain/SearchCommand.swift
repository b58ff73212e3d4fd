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
      With --json, stdout is one JSON array; each result is
      {"kind","id","title","artist","album","duration","playable"} with absent fields left out
      (for artists and playlists, title is the name).
      """)

  @Argument(help: "What to search for (several words are searched together).")
  var query: [String]

  @Option(help: "The catalog: demo, local (your scanned folders) or deezer.")
  var provider: RefrainConfiguration.Provider = .demo

  @Option(help: "What to look for: track, album, artist or playlist.")
  var type = "track"

  @Option(help: "At most this many results.")
  var limit = 50

  @Flag(help: "Print the results as one JSON array.")
  var json = false

  func validate() throws {
    guard SearchKind(rawValue: type) != nil else {
      throw ValidationError("--type takes track, album, artist or playlist")
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
      FileHandle.standardError.write(Data("refrain search: \(error)\n".utf8))
      throw ExitCode(1)
    }
    if provider == .local, page.items.isEmpty, let library = try? LibraryStore.openDefault(),
      (try? LocalCatalogProvider(store: library).trackCount()) == 0
    {
      FileHandle.standardError.write(
        Data(
          "refrain search: your library is empty; index your music with `refrain scan DIR`\n".utf8))
    }
    if json {
      print("[" + page.items.map { Self.jsonObject($0).text }.joined(separator: ",") + "]")
    } else if page.items.isEmpty {
      print("(no results)")
    } else {
      for item in page.items { print(Self.textLine(item)) }
    }
  }

  /// One result as the JSON object of the command-line contract.
  static func jsonObject(_ item: CatalogItem) -> JSONLine {
    var fields: [(String, JSONLine.Value)] = [("kind", .string(item.kind))]
    switch item {
    case .track(let track):
      fields.append(("id", .string(track.id)))
      fields.append(("title", .string(track.title)))
      if let artist = track.artist { fields.append(("artist", .string(artist))) }
      if let album = track.album { fields.append(("album", .string(album))) }
      if let duration = track.duration {
        fields.append(("duration", .number(duration, decimals: 3)))
      }
      fields.append(("playable", .bool(track.isPlayable)))
    case .album(let album):
      fields.append(("id", .string(album.id)))
      fields.append(("title", .string(album.title)))
      if let artist = album.artist { fields.append(("artist", .string(artist))) }
    case .artist(let artist):
      fields.append(("id", .string(artist.id)))
      fields.append(("title", .string(artist.name)))
    case .playlist(let playlist):
      fields.append(("id", .string(playlist.id)))
      fields.append(("title", .string(playlist.title)))
      if let owner = playlist.owner { fields.append(("artist", .string(owner))) }
    case .genre(let genre):
      fields.append(("id", .string(genre.id)))
      fields.append(("title", .string(genre.name)))
    }
    return JSONLine(fields)
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
    }
    let line = parts.map(TerminalSanitizer.clean).joined(separator: " · ")
    return item.kind.padding(toLength: 9, withPad: " ", startingAt: 0) + line
  }
}
