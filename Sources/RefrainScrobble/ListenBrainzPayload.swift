import Foundation
import RefrainCore

/// The JSON bodies of ListenBrainz's `POST /1/submit-listens`: `playing_now`, `single` and
/// `import`, built without any I/O.
///
/// Each body has `listen_type` and a `payload` array of listens; a listen has
/// `track_metadata` (`artist_name`, `track_name`, `release_name` when known, and
/// `additional_info` with `duration_ms`, `submission_client` and
/// `submission_client_version`) and, except for `playing_now`, `listened_at` in whole
/// seconds since 1970. A listen without an artist or a title is refused (`nil`), since
/// ListenBrainz requires both. Keys are sorted (``JSONOutput``), so a body is reproducible.
package enum ListenBrainzPayload {
  /// The most listens one `import` body holds (Refrain's choice, well under the service's
  /// own limits).
  package static let maximumImport = 100

  /// The program that submits, named in every listen's `additional_info`.
  package struct Client: Sendable, Hashable {
    /// The client's name, such as `Refrain`.
    package var name: String
    /// The client's version, such as `0.2.0`.
    package var version: String

    /// Names the submitting program.
    package init(name: String, version: String) {
      self.name = name
      self.version = version
    }
  }

  /// The `playing_now` body for a track that started (it has no `listened_at`).
  package static func playingNow(_ nowPlaying: NowPlaying, client: Client) -> Data? {
    let track = nowPlaying.track
    guard
      let metadata = Metadata(
        artist: track.artist ?? "", title: track.title, album: track.album ?? "",
        duration: nowPlaying.duration, client: client)
    else { return nil }
    return JSONOutput.data(Body(type: "playing_now", payload: [Entry(metadata: metadata)]))
  }

  /// The `single` body for one queued listen.
  package static func single(_ listen: QueuedListen, client: Client) -> Data? {
    guard let entry = entry(listen, client: client) else { return nil }
    return JSONOutput.data(Body(type: "single", payload: [entry]))
  }

  /// The `import` body for 1 to ``maximumImport`` queued listens, in the order given; `nil`
  /// when there are none, too many, or one cannot be submitted.
  package static func importing(_ listens: [QueuedListen], client: Client) -> Data? {
    guard (1...maximumImport).contains(listens.count) else { return nil }
    var entries: [Entry] = []
    for listen in listens {
      guard let entry = entry(listen, client: client) else { return nil }
      entries.append(entry)
    }
    return JSONOutput.data(Body(type: "import", payload: entries))
  }

  private static func entry(_ listen: QueuedListen, client: Client) -> Entry? {
    guard
      let metadata = Metadata(
        artist: listen.artist, title: listen.title, album: listen.album,
        duration: listen.duration, client: client)
    else { return nil }
    return Entry(listenedAt: listen.listenedAt, metadata: metadata)
  }

  // MARK: - The JSON

  private struct Body: Encodable {
    var type: String
    var payload: [Entry]

    enum CodingKeys: String, CodingKey {
      case type = "listen_type"
      case payload
    }
  }

  private struct Entry: Encodable {
    var listenedAt: Int64?
    var metadata: Metadata

    enum CodingKeys: String, CodingKey {
      case listenedAt = "listened_at"
      case metadata = "track_metadata"
    }
  }

  private struct Metadata: Encodable {
    var artistName: String
    var trackName: String
    var releaseName: String?
    var additionalInfo: AdditionalInfo

    /// `nil` when the artist or the title is blank; a blank album is left out.
    init?(artist: String, title: String, album: String, duration: Double, client: Client) {
      let artist = artist.trimmingCharacters(in: .whitespacesAndNewlines)
      let title = title.trimmingCharacters(in: .whitespacesAndNewlines)
      let album = album.trimmingCharacters(in: .whitespacesAndNewlines)
      guard !artist.isEmpty, !title.isEmpty else { return nil }
      artistName = artist
      trackName = title
      releaseName = album.isEmpty ? nil : album
      let milliseconds = duration.isFinite && duration > 0 ? Int((duration * 1000).rounded()) : nil
      additionalInfo = AdditionalInfo(
        durationMs: milliseconds, submissionClient: client.name,
        submissionClientVersion: client.version)
    }

    enum CodingKeys: String, CodingKey {
      case artistName = "artist_name"
      case trackName = "track_name"
      case releaseName = "release_name"
      case additionalInfo = "additional_info"
    }
  }

  private struct AdditionalInfo: Encodable {
    var durationMs: Int?
    var submissionClient: String
    var submissionClientVersion: String

    enum CodingKeys: String, CodingKey {
      case durationMs = "duration_ms"
      case submissionClient = "submission_client"
      case submissionClientVersion = "submission_client_version"
    }
  }
}
