import Foundation
import RefrainCore
import TOMLKit

/// Turns config.toml text into a configuration, collecting problems instead of failing.
///
/// A syntax error keeps every default. Otherwise each key is read on its own: an unknown key
/// or a bad value is reported with its line and keeps its default, and the rest still apply.
struct ConfigReader {
  /// Files larger than this are not parsed at all (a config file is a few kilobytes).
  static let maxBytes = 1 << 20

  /// The file name used in problems.
  let file: String
  /// The home directory `~` stands for in paths.
  let home: String
  let locator: ConfigLineLocator
  var configuration = RefrainConfiguration()
  var problems: [ConfigProblem] = []
  /// Key bindings with the line they came from, so they apply in file order.
  var bindings: [(line: Int, binding: RefrainConfiguration.KeyBinding)] = []

  /// Reads `text`, naming `file` in problems and expanding `~` to `home`.
  static func read(_ text: String, file: String, home: String) -> (
    configuration: RefrainConfiguration, problems: [ConfigProblem]
  ) {
    var reader = ConfigReader(file: file, home: home, locator: ConfigLineLocator(text: text))
    reader.readDocument(text)
    reader.configuration.keyBindings = reader.bindings.enumerated()
      .sorted { ($0.element.line, $0.offset) < ($1.element.line, $1.offset) }
      .map(\.element.binding)
    let ordered = reader.problems.enumerated().sorted {
      ($0.element.line ?? 0, $0.offset) < ($1.element.line ?? 0, $1.offset)
    }
    return (reader.configuration, ordered.map(\.element))
  }

  // MARK: - The document

  private mutating func readDocument(_ text: String) {
    guard text.utf8.count <= Self.maxBytes else {
      fileProblem(line: nil, "is larger than 1 MiB; Refrain uses the defaults for every key")
      return
    }
    if let nul = text.firstIndex(of: "\0") {
      let line = text[..<nul].reduce(1) { $1 == "\n" || $1 == "\r\n" ? $0 + 1 : $0 }
      fileProblem(line: line, "contains a NUL character; Refrain uses the defaults for every key")
      return
    }
    if let trap = ParserTrapCheck.firstTrap(in: text) {
      fileProblem(
        line: trap.line, "syntax error: \(trap.reason); Refrain uses the defaults for every key")
      return
    }
    let root: TOMLTable
    do {
      root = try TOMLTable(string: text)
    } catch let error as TOMLParseError {
      let position = error.source.begin
      fileProblem(
        line: max(position.line, 1),
        "syntax error at column \(position.column): \(error.description); "
          + "Refrain uses the defaults for every key")
      return
    } catch {
      fileProblem(line: nil, "cannot be read as TOML (\(error)); Refrain uses the defaults")
      return
    }
    readRoot(root)
  }

  private mutating func readRoot(_ root: TOMLTable) {
    let tableNames = ConfigKey.tables.map(\.name).filter { !$0.contains(".") }
    for (name, value) in entries(of: root, path: nil) {
      guard tableNames.contains(name) else {
        unknown(name, candidates: tableNames)
        continue
      }
      guard let table = value.table else {
        problem(name, "must be a table, written [\(name)] (found \(Self.kind(of: value)))")
        continue
      }
      if let context = ConfigKey.keyTables[name] {
        readKeyTable(table, path: name, context: context)
      } else {
        readSettings(table, tableName: name)
      }
    }
  }

  private mutating func readSettings(_ table: TOMLTable, tableName: String) {
    let names = ConfigKey.all.filter { $0.table == tableName }.map(\.name)
    for (name, value) in entries(of: table, path: tableName) {
      let path = "\(tableName).\(name)"
      guard names.contains(name) else {
        unknown(path, candidates: names.map { "\(tableName).\($0)" })
        continue
      }
      apply(value, to: path)
    }
  }

  /// Reads one known setting into ``configuration``; a bad value is reported and skipped.
  private mutating func apply(_ value: any TOMLValueConvertible, to path: String) {
    switch path {
    case "catalog.provider":
      if let provider = choice(value, path, RefrainConfiguration.Provider.self) {
        configuration.provider = provider
      }
    case "catalog.music_folders":
      if let folders = folders(value, path) { configuration.musicFolders = folders }
    case "audio.output":
      if let output = choice(value, path, RefrainConfiguration.Output.self) {
        configuration.output = output
      }
    case "audio.pulse_server":
      if let server = name(value, path) { configuration.pulseServer = server }
    case "audio.pulse_sink":
      if let sink = name(value, path) { configuration.pulseSink = sink }
    case "audio.buffer_ms":
      if let ms = integer(value, path, in: RefrainConfiguration.bufferRange) {
        configuration.bufferMs = ms
      }
    case "playback.replaygain":
      if let mode = choice(value, path, ReplayGainMode.self) {
        configuration.replayGain.mode = mode
      }
    case "playback.replaygain_preamp":
      if let db = decibels(value, path, in: RefrainConfiguration.preampRange) {
        configuration.replayGain.preamp = db
      }
    case "playback.replaygain_clip":
      if let flag = boolean(value, path) { configuration.replayGain.preventClipping = flag }
    case "lyrics.sources":
      if let sources = lyricsSources(value, path) { configuration.lyricsSources = sources }
    case "lyrics.romanize":
      if let flag = boolean(value, path) { configuration.romanize = flag }
    case "lyrics.offset_ms":
      let limit = RefrainConfiguration.maxLyricOffsetMs
      if let ms = integer(value, path, in: -limit...limit) { configuration.lyricOffsetMs = ms }
    case "online.deezer_url":
      if let url = baseURL(value, path) { configuration.deezerURL = url }
    case "online.lrclib_url":
      if let url = baseURL(value, path) { configuration.lrclibURL = url }
    case "display.colors":
      if let flag = boolean(value, path) { configuration.colors = flag }
    case "display.theme":
      if let theme = choice(value, path, RefrainConfiguration.Theme.self) {
        configuration.theme = theme
      }
    case "display.cover_art":
      // true and false were the setting before the modes existed: auto and off.
      if let flag = value.bool {
        configuration.coverArt = flag ? .auto : .off
      } else if let mode = choice(value, path, CoverArtMode.self) {
        configuration.coverArt = mode
      }
    case "display.mouse":
      if let flag = boolean(value, path) { configuration.mouse = flag }
    case "display.lyrics_highlight":
      if let highlight = choice(value, path, LyricHighlight.self) {
        configuration.lyricHighlight = highlight
      }
    case "desktop.mpris":
      if let flag = boolean(value, path) { configuration.mpris = flag }
    case "desktop.notify":
      if let flag = boolean(value, path) { configuration.notify = flag }
    case "scrobble.listenbrainz_token":
      if let token = secret(value, path) { configuration.listenBrainzToken = token }
    case "scrobble.listenbrainz_token_file":
      if let file = filePath(value, path) { configuration.listenBrainzTokenFile = file }
    case "scrobble.lastfm_api_key":
      if let key = secret(value, path) { configuration.lastFMAPIKey = key }
    case "spotify.client_id":
      if let text = string(value, path) {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        configuration.spotifyClientID = trimmed.isEmpty ? nil : trimmed
      }
    case "subsonic.scrobble":
      if let flag = boolean(value, path) { configuration.subsonicScrobble = flag }
    case "subsonic.transcode":
      if let format = choice(value, path, RefrainConfiguration.Transcode.self) {
        configuration.subsonicTranscode = format
      }
    case "subsonic.max_bitrate":
      if let kbps = integer(value, path, in: RefrainConfiguration.maxBitrateRange) {
        configuration.subsonicMaxBitrate = kbps
      }
    case "scrobble.lastfm_secret":
      if let secret = secret(value, path) { configuration.lastFMSecret = secret }
    default:
      unknown(path, candidates: [])
    }
  }

  /// The entries of `table` (`path` names it in problems; `nil` is the top level).
  ///
  /// TOMLKit's own iteration traps on a key that holds a NUL character (`"\u0000"`), since
  /// the key comes back cut short and its lookup fails; such keys are reported and skipped.
  mutating func entries(of table: TOMLTable, path: String?) -> [(
    name: String, value: any TOMLValueConvertible
  )] {
    var result: [(name: String, value: any TOMLValueConvertible)] = []
    for name in table.keys {
      guard let value = table[name] else {
        let place = path.map { "[\($0)]" } ?? "the top level"
        problems.append(
          ConfigProblem(
            file: file, line: path.flatMap { locator.line(of: $0) }, key: path,
            message: "a key in \(place) holds a NUL character; Refrain ignores it"))
        continue
      }
      result.append((name, value))
    }
    return result
  }

  // MARK: - Problems

  /// Reports a problem with `path`, at the line where the text sets it.
  mutating func problem(_ path: String, _ message: String) {
    var text = message
    if let key = ConfigKey.named(path) { text += "; using the default, \(key.defaultValue)" }
    problems.append(
      ConfigProblem(file: file, line: locator.line(of: path), key: path, message: text))
  }

  private mutating func fileProblem(line: Int?, _ message: String) {
    problems.append(ConfigProblem(file: file, line: line, key: nil, message: message))
  }

  /// Reports a key Refrain does not know, suggesting a close known one.
  mutating func unknown(_ path: String, candidates: [String]) {
    var message = "unknown key; Refrain ignores it"
    if let close = ConfigSuggestion.closest(to: path, among: candidates) {
      message += " (did you mean \(close)?)"
    }
    problems.append(
      ConfigProblem(file: file, line: locator.line(of: path), key: path, message: message))
  }
}
