import CMPRISLoader
import Foundation

/// The MPRIS endpoint on the session bus: CMPRIS's D-Bus thread, its property snapshot and
/// its request queue (see `Sources/CMPRISLoader/include/refrain_mpris.h`).
///
/// Every call returns at once: the setters copy under a mutex and leave the signals to the
/// D-Bus thread, which also answers every `Get` (`Position` included) without this thread.
/// Use it from one thread, the loop's.
public final class MPRISBus: MPRISEndpoint {
  private var server: OpaquePointer?

  /// Starts the D-Bus thread, which asks for `name`, then `fallbackName` when `name` is
  /// taken; `nil` when the process has no descriptor or thread to spare. Whether the bus
  /// answered arrives later, as ``MPRISRequest/connected(busName:)`` or
  /// ``MPRISRequest/unavailable(reason:)``.
  public init?(name: String, fallbackName: String) {
    guard let server = refrain_mpris_start(name, fallbackName) else { return nil }
    self.server = server
  }

  deinit { stop() }

  /// Why the MPRIS plugin (librefrain-mpris.so) cannot be used, or `nil` once it is loaded.
  public static func pluginProblem() -> String? {
    var reason = [CChar](repeating: 0, count: 1024)
    if refrain_mpris_load(&reason, UInt(reason.count)) != 0 { return nil }
    return String(decoding: reason.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }

  public var wakeFileDescriptor: Int32 { server.map { refrain_mpris_wake_fd($0) } ?? -1 }

  public func takeRequests() -> [MPRISRequest] {
    guard let server else { return [] }
    refrain_mpris_drain_wake(server)
    var requests: [MPRISRequest] = []
    var taken = refrain_mpris_request()
    while refrain_mpris_take(server, &taken) != 0 {
      let text = taken.text.map { String(cString: $0) } ?? ""
      if let request = Self.request(
        kind: taken.kind, integer: taken.integer, number: taken.number,
        text: text)
      {
        requests.append(request)
      }
      refrain_mpris_request_clear(&taken)
    }
    return requests
  }

  public func notify(summary: String, body: String, icon: URL?) {
    guard let server else { return }
    refrain_mpris_notify(server, summary, body, icon?.path ?? "")
  }

  public func publish(_ state: MPRISPlayerState) {
    guard let server else { return }
    let status: Int32
    switch state.playbackStatus {
    case .stopped: status = Int32(REFRAIN_MPRIS_STOPPED.rawValue)
    case .playing: status = Int32(REFRAIN_MPRIS_PLAYING.rawValue)
    case .paused: status = Int32(REFRAIN_MPRIS_PAUSED.rawValue)
    }
    let player = refrain_mpris_player(
      playback_status: status, loop_status: Self.loopValue(state.loopStatus),
      shuffle: state.shuffle ? 1 : 0, volume: state.volume,
      can_go_next: state.canGoNext ? 1 : 0, can_go_previous: state.canGoPrevious ? 1 : 0,
      can_play: state.canPlay ? 1 : 0, can_pause: state.canPause ? 1 : 0,
      can_seek: state.canSeek ? 1 : 0)
    refrain_mpris_set_player(server, player)
  }

  public func publish(_ metadata: MPRISMetadata?) {
    guard let server else { return }
    refrain_mpris_metadata_begin(server)
    if let metadata {
      refrain_mpris_metadata_add_path(server, "mpris:trackid", metadata.trackID)
      if let length = metadata.length {
        refrain_mpris_metadata_add_int64(server, "mpris:length", length)
      }
      refrain_mpris_metadata_add_string(server, "xesam:title", metadata.title)
      if !metadata.artists.isEmpty {
        refrain_mpris_metadata_add_strings(server, "xesam:artist", Self.joined(metadata.artists))
      }
      if let album = metadata.album {
        refrain_mpris_metadata_add_string(server, "xesam:album", album)
      }
      if !metadata.albumArtists.isEmpty {
        refrain_mpris_metadata_add_strings(
          server, "xesam:albumArtist", Self.joined(metadata.albumArtists))
      }
      refrain_mpris_metadata_add_string(server, "xesam:url", metadata.url)
      if let art = metadata.artURL {
        refrain_mpris_metadata_add_string(server, "mpris:artUrl", art)
      }
      if let lyrics = metadata.lyrics {
        refrain_mpris_metadata_add_string(server, "xesam:asText", lyrics)
      }
    }
    refrain_mpris_metadata_commit(server)
  }

  public func anchor(_ position: MPRISPosition) {
    guard let server else { return }
    refrain_mpris_set_position(
      server, position.microseconds, position.advancing ? 1 : 0, position.limit ?? -1)
  }

  public func seeked(to microseconds: Int64) {
    guard let server else { return }
    refrain_mpris_emit_seeked(server, microseconds)
  }

  public func stop() {
    guard let server else { return }
    self.server = nil
    refrain_mpris_stop(server)
  }

  // MARK: - Conversions

  /// The request a C request stands for; `nil` for a kind this side does not know.
  static func request(
    kind: refrain_mpris_request_kind, integer: Int64, number: Double, text: String
  ) -> MPRISRequest? {
    switch kind {
    case REFRAIN_MPRIS_CONNECTED: return .connected(busName: text)
    case REFRAIN_MPRIS_UNAVAILABLE: return .unavailable(reason: text)
    case REFRAIN_MPRIS_DISCONNECTED: return .disconnected(reason: text)
    case REFRAIN_MPRIS_QUIT: return .quit
    case REFRAIN_MPRIS_NEXT: return .next
    case REFRAIN_MPRIS_PREVIOUS: return .previous
    case REFRAIN_MPRIS_PAUSE: return .pause
    case REFRAIN_MPRIS_PLAY_PAUSE: return .playPause
    case REFRAIN_MPRIS_STOP: return .stop
    case REFRAIN_MPRIS_PLAY: return .play
    case REFRAIN_MPRIS_SEEK: return .seek(offset: integer)
    case REFRAIN_MPRIS_SET_POSITION: return .setPosition(trackID: text, position: integer)
    case REFRAIN_MPRIS_OPEN_URI: return .openURI(text)
    case REFRAIN_MPRIS_SET_VOLUME: return .setVolume(number)
    case REFRAIN_MPRIS_SET_SHUFFLE: return .setShuffle(integer != 0)
    case REFRAIN_MPRIS_SET_LOOP:
      switch integer {
      case Int64(REFRAIN_MPRIS_LOOP_TRACK.rawValue): return .setLoop(.track)
      case Int64(REFRAIN_MPRIS_LOOP_PLAYLIST.rawValue): return .setLoop(.playlist)
      default: return .setLoop(.off)
      }
    default: return nil
    }
  }

  private static func loopValue(_ loop: MPRISPlayerState.LoopStatus) -> Int32 {
    switch loop {
    case .off: return Int32(REFRAIN_MPRIS_LOOP_NONE.rawValue)
    case .track: return Int32(REFRAIN_MPRIS_LOOP_TRACK.rawValue)
    case .playlist: return Int32(REFRAIN_MPRIS_LOOP_PLAYLIST.rawValue)
    }
  }

  /// A list as CMPRIS takes it: items separated by U+001F (which no tag contains).
  private static func joined(_ items: [String]) -> String {
    items.map { $0.replacingOccurrences(of: "\u{1F}", with: " ") }.joined(separator: "\u{1F}")
  }
}
