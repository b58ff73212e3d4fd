import Foundation
import RefrainCore

/// Everything a user can set in `config.toml`; every property starts at its default.
///
/// Load it with ``RefrainConfiguration/load(environment:)``. Keys that are missing, unknown
/// or wrong keep the defaults below, so Refrain always starts.
public struct RefrainConfiguration: Sendable, Equatable {
  /// A catalog Refrain can open at start.
  public enum Provider: String, Sendable, CaseIterable {
    /// The bundled demo catalog; works offline.
    case demo
    /// The user's own MP3 folders (`catalog.music_folders`).
    case local
    /// The online catalog at `online.deezer_url`.
    case deezer
    /// The library imported with `refrain spotify import`, offline.
    case spotify
    /// The user's Subsonic or OpenSubsonic server (`refrain subsonic login`).
    case subsonic
  }

  /// Where decoded audio goes.
  public enum Output: String, Sendable, CaseIterable {
    /// A PulseAudio server (local, or `audio.pulse_server`).
    case pulse
    /// Silence on a real-time clock; lyrics and the queue still work.
    case null
  }

  /// The format a Subsonic server sends its tracks in (`subsonic.transcode`).
  public enum Transcode: String, Sendable, CaseIterable {
    /// The file as the server stores it: no `format`, no `maxBitRate`; seeks ask for bytes.
    case raw
    /// Opus in Ogg.
    case opus
    /// MP3.
    case mp3
    /// Vorbis in Ogg.
    case ogg
  }

  /// A colour scheme for the full-screen player.
  public enum Theme: String, Sendable, CaseIterable {
    /// Refrain's standard colours.
    case standard = "default"
    /// No colours; bold, reverse and underline still mark the focus.
    case mono
  }

  /// One entry of `[keys]`, `[keys.lists]` or `[keys.lyrics]`.
  public struct KeyBinding: Sendable, Hashable {
    /// The key, as `Key(name:)` reads it.
    public var key: Key
    /// What the key does; `nil` removes the key's binding in `context`.
    public var command: Command?
    /// Where the binding applies.
    public var context: KeyContext

    /// Creates a binding override.
    public init(key: Key, command: Command?, context: KeyContext) {
      self.key = key
      self.command = command
      self.context = context
    }
  }

  /// The range `audio.buffer_ms` accepts, in milliseconds.
  public static let bufferRange = 20...2000
  /// The largest `lyrics.offset_ms` either way, in milliseconds.
  public static let maxLyricOffsetMs = 60_000

  // [catalog]
  /// The catalog opened at start (`catalog.provider`).
  public var provider: Provider = .demo
  /// Music folders for the local catalog, `~` expanded (`catalog.music_folders`).
  public var musicFolders: [String] = []

  // [audio]
  /// The audio output (`audio.output`).
  public var output: Output = .pulse
  /// The PulseAudio server; `nil` uses `PULSE_SERVER` or the default (`audio.pulse_server`).
  public var pulseServer: String?
  /// The PulseAudio sink; `nil` uses the server's default sink (`audio.pulse_sink`).
  public var pulseSink: String?
  /// How much audio PulseAudio buffers, in milliseconds (`audio.buffer_ms`).
  public var bufferMs = 1000

  // [playback]
  /// ReplayGain: the mode, the preamp and clipping prevention (`playback.replaygain`,
  /// `playback.replaygain_preamp`, `playback.replaygain_clip`).
  public var replayGain = ReplayGainSettings()
  /// The preamp's range, in dB.
  public static let preampRange = -15.0...15.0

  // [lyrics]
  /// Where lyrics are looked for, in order (`lyrics.sources`).
  public var lyricsSources: [LyricsSourceKind] = [.sidecar, .embedded, .cache, .online]
  /// Shifts every track's lyrics; positive shows lines earlier (`lyrics.offset_ms`).
  public var lyricOffsetMs = 0
  /// Whether Korean and Japanese lines show their romanization at start (`lyrics.romanize`).
  public var romanize = false

  // [online]
  /// The online catalog's API root; `nil` turns it off (`online.deezer_url`).
  public var deezerURL: URL?
  /// The LRCLIB-compatible lyrics service's root; `nil` turns it off (`online.lrclib_url`).
  public var lrclibURL: URL?

  // [display]
  /// Whether the player uses colours (`display.colors`); `NO_COLOR` still wins.
  public var colors = true
  /// The colour scheme (`display.theme`).
  public var theme: Theme = .standard
  /// How the Player pane draws the cover (`display.cover_art`).
  public var coverArt: CoverArtMode = .auto
  /// Whether mouse clicks and the wheel are used (`display.mouse`).
  public var mouse = false
  /// How the lyrics view marks the line being sung (`display.lyrics_highlight`).
  public var lyricHighlight: LyricHighlight = .line

  // [desktop]
  /// Whether playback is offered to the desktop over MPRIS (`desktop.mpris`).
  public var mpris = true
  /// Whether a desktop notification shows when a track starts (`desktop.notify`).
  public var notify = false

  // [scrobble]
  /// The ListenBrainz user token; `nil` when unset (`scrobble.listenbrainz_token`).
  public var listenBrainzToken: SecretText?
  /// A file holding the ListenBrainz token, `~` expanded (`scrobble.listenbrainz_token_file`).
  ///
  /// `nil` when unset. ``listenBrainzToken(reading:)`` reads it.
  public var listenBrainzTokenFile: String?
  /// The Last.fm API key; `nil` when unset (`scrobble.lastfm_api_key`).
  public var lastFMAPIKey: SecretText?
  /// The Last.fm shared secret; `nil` when unset (`scrobble.lastfm_secret`).
  public var lastFMSecret: SecretText?

  // [spotify]
  /// The client ID of the user's Spotify app; `nil` when unset (`spotify.client_id`).
  public var spotifyClientID: String?

  // [subsonic]
  /// Whether plays of the server's tracks are sent to the server (`subsonic.scrobble`).
  public var subsonicScrobble = true
  /// The format the server sends tracks in (`subsonic.transcode`): `raw` is the stored file.
  public var subsonicTranscode: Transcode = .raw
  /// The most kbit/s a transcoded stream may use, 0 for no limit (`subsonic.max_bitrate`).
  public var subsonicMaxBitrate = 0
  /// The values `subsonic.max_bitrate` may take, in kbit/s (0 is no limit).
  public static let maxBitrateRange = 0...2000

  // [keys]
  /// Key binding overrides, in file order, applied onto `KeyMap.standard`.
  public var keyBindings: [KeyBinding] = []

  /// Creates the default configuration.
  public init() {}

  /// Whether the player should draw in colour: `colors` on and a colour theme chosen.
  public var usesColors: Bool { colors && theme != .mono }

  /// The PulseAudio buffer target in seconds, as `PulseOutput(bufferTarget:)` takes it.
  public var bufferTarget: Double { Double(bufferMs) / 1000 }

  /// `base` with the configured key bindings applied, in file order.
  public func keyMap(base: KeyMap = .standard) -> KeyMap {
    var map = base
    for binding in keyBindings {
      if let command = binding.command {
        map.bind(binding.key, to: command, in: binding.context)
      } else {
        let remaining = map.bindings.filter {
          !($0.key == binding.key && $0.context == binding.context)
        }
        map = KeyMap(bindings: remaining)
      }
    }
    return map
  }
}
