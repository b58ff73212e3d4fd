import RefrainCore

/// One setting of config.toml: its table, its name, its default as TOML, and what it does.
///
/// ``all`` is the one list of settings: the reader rejects keys not in it, and
/// ``RefrainConfiguration/defaultFileText`` and docs/config.md are checked against it.
public struct ConfigKey: Sendable, Hashable {
  /// The table the key lives in, such as `audio`.
  public var table: String
  /// The key's name inside its table, such as `buffer_ms`.
  public var name: String
  /// The default, written as TOML.
  public var defaultValue: String
  /// One line on what the key does and what it takes.
  public var summary: String

  /// The dotted key, such as `audio.buffer_ms`.
  public var path: String { "\(table).\(name)" }

  /// A table of config.toml and one line on what it holds.
  public struct Table: Sendable, Hashable {
    /// The table's name, such as `audio` or `keys.lists`.
    public var name: String
    /// What the table holds.
    public var summary: String
  }

  /// Every table, in file order.
  public static let tables: [Table] = [
    Table(name: "catalog", summary: "Where music comes from."),
    Table(name: "audio", summary: "Where the sound goes."),
    Table(name: "playback", summary: "How tracks sound: ReplayGain (docs/config.md)."),
    Table(name: "lyrics", summary: "Where lyrics come from, and their timing."),
    Table(
      name: "online",
      summary: "Online services; empty means off. REFRAIN_DEEZER_URL and REFRAIN_LRCLIB_URL win."),
    Table(name: "display", summary: "How the full-screen player looks."),
    Table(name: "desktop", summary: "The desktop: media keys and players (MPRIS), notifications."),
    Table(
      name: "scrobble",
      summary: "Listens sent to ListenBrainz and Last.fm; empty credentials mean off."),
    Table(name: "spotify", summary: "Your Spotify library, imported (docs/spotify.md)."),
    Table(name: "subsonic", summary: "Your Subsonic server (docs/home-server.md)."),
    Table(
      name: "keys",
      summary: "Key bindings everywhere: key name = command, as the : prompt reads it."),
    Table(name: "keys.lists", summary: "Key bindings in lists (Home, Search, Library, Queue)."),
    Table(name: "keys.lyrics", summary: "Key bindings in the lyrics view."),
  ]

  /// The tables that hold key bindings rather than settings, and where each applies.
  public static let keyTables: [String: KeyContext] = [
    "keys": .global, "keys.lists": .lists, "keys.lyrics": .lyrics,
  ]

  /// Every setting, in file order.
  public static let all: [ConfigKey] = [
    ConfigKey(
      table: "catalog", name: "provider", defaultValue: "\"demo\"",
      summary: "The catalog opened at start: demo, local, deezer, spotify or subsonic."),
    ConfigKey(
      table: "catalog", name: "music_folders", defaultValue: "[]",
      summary: "Music folders for the local catalog: absolute paths or ~/…"),
    ConfigKey(
      table: "audio", name: "output", defaultValue: "\"pulse\"",
      summary: "The audio output: pulse (a PulseAudio server) or null (silent, real-time clock)."),
    ConfigKey(
      table: "audio", name: "pulse_server", defaultValue: "\"\"",
      summary: "The PulseAudio server, e.g. tcp:192.168.1.20:4713; empty uses PULSE_SERVER."),
    ConfigKey(
      table: "audio", name: "pulse_sink", defaultValue: "\"\"",
      summary: "The PulseAudio sink to play on; empty uses the server's default sink."),
    ConfigKey(
      table: "audio", name: "buffer_ms", defaultValue: "1000",
      summary: "Audio queued on the sound server, 20 to 2000 ms; seeks flush it, larger wakes less."
    ),
    ConfigKey(
      table: "playback", name: "replaygain", defaultValue: "\"off\"",
      summary: "ReplayGain: off, track, album, or auto (album gain for an album played in order)."
    ),
    ConfigKey(
      table: "playback", name: "replaygain_preamp", defaultValue: "0.0",
      summary: "dB added to every ReplayGain applied, -15.0 to 15.0."),
    ConfigKey(
      table: "playback", name: "replaygain_clip", defaultValue: "true",
      summary: "Lower the gain where the stored peak would clip (peak × gain ≤ 1.0)."),
    ConfigKey(
      table: "lyrics", name: "sources",
      defaultValue: "[\"sidecar\", \"embedded\", \"cache\", \"online\"]",
      summary: "Where lyrics are looked for, in order: any of sidecar, embedded, cache, online."),
    ConfigKey(
      table: "lyrics", name: "offset_ms", defaultValue: "0",
      summary: "Shifts all lyrics, -60000 to 60000 ms; positive shows lines earlier."),
    ConfigKey(
      table: "lyrics", name: "romanize", defaultValue: "false",
      summary: "Show Korean and Japanese lines romanized too (t toggles it while playing)."),
    ConfigKey(
      table: "online", name: "deezer_url", defaultValue: "\"\"",
      summary: "The online catalog's API root (http or https); empty turns it off."),
    ConfigKey(
      table: "online", name: "lrclib_url", defaultValue: "\"\"",
      summary: "An LRCLIB-compatible lyrics service's root (http or https); empty turns it off."),
    ConfigKey(
      table: "display", name: "colors", defaultValue: "true",
      summary: "Draw in colour (NO_COLOR in the environment turns colour off anyway)."),
    ConfigKey(
      table: "display", name: "theme", defaultValue: "\"default\"",
      summary: "The colour scheme: default, or mono (no colours, only bold and reverse)."),
    ConfigKey(
      table: "display", name: "cover_art", defaultValue: "\"auto\"",
      summary: "The Player pane's cover: auto, blocks (half blocks), kitty, iterm or off."),
    ConfigKey(
      table: "display", name: "mouse", defaultValue: "false",
      summary: "Use mouse clicks and the wheel (off keeps the terminal's own text selection)."),
    ConfigKey(
      table: "display", name: "lyrics_highlight", defaultValue: "\"line\"",
      summary: "The sung line in the lyrics view: line (bold colour) or marker (a ▶ only)."),
    ConfigKey(
      table: "desktop", name: "mpris", defaultValue: "true",
      summary: "Offer playback to the desktop over MPRIS (media keys, panels, playerctl)."),
    ConfigKey(
      table: "desktop", name: "notify", defaultValue: "false",
      summary: "Show a desktop notification when a track starts."),
    ConfigKey(
      table: "scrobble", name: "listenbrainz_token", defaultValue: "\"\"",
      summary: "Your ListenBrainz user token; empty uses listenbrainz_token_file, or is off."),
    ConfigKey(
      table: "scrobble", name: "listenbrainz_token_file", defaultValue: "\"\"",
      summary: "A file holding the ListenBrainz token (absolute or ~/…, best mode 0600)."),
    ConfigKey(
      table: "scrobble", name: "lastfm_api_key", defaultValue: "\"\"",
      summary: "Your Last.fm API account's key; empty turns Last.fm off."),
    ConfigKey(
      table: "scrobble", name: "lastfm_secret", defaultValue: "\"\"",
      summary: "Your Last.fm API account's shared secret; empty turns Last.fm off."),
    ConfigKey(
      table: "spotify", name: "client_id", defaultValue: "\"\"",
      summary: "The client ID of your Spotify app, for `refrain spotify login` (docs/spotify.md)."),
    ConfigKey(
      table: "subsonic", name: "scrobble", defaultValue: "true",
      summary: "Tell the server what plays (scrobble.view); false if it forwards to Last.fm."),
    ConfigKey(
      table: "subsonic", name: "transcode", defaultValue: "\"raw\"",
      summary: "The format tracks come in: raw (the stored file), or opus, mp3, ogg for thin links."
    ),
    ConfigKey(
      table: "subsonic", name: "max_bitrate", defaultValue: "0",
      summary: "The most kbit/s a transcoded track may use (0: the server's choice)."),
  ]

  /// The setting at `path` (`audio.buffer_ms`), if there is one.
  public static func named(_ path: String) -> ConfigKey? {
    all.first { $0.path == path }
  }
}
