import Foundation
import RefrainCore

/// One lyrics record as LRCLIB's `/api/get` and `/api/search` return it.
///
/// Every field may be missing; `duration` is in (fractional) seconds, and `plainLyrics` and
/// `syncedLyrics` may be `null` or `""`.
struct LRCLIBRecord: Decodable, Sendable, Equatable {
  var id: Int?
  var trackName: String?
  var artistName: String?
  var albumName: String?
  var duration: Double?
  var instrumental: Bool
  var plainLyrics: String?
  var syncedLyrics: String?

  /// Creates a record (for tests and ranking).
  init(
    id: Int? = nil, trackName: String? = nil, artistName: String? = nil, albumName: String? = nil,
    duration: Double? = nil, instrumental: Bool = false, plainLyrics: String? = nil,
    syncedLyrics: String? = nil
  ) {
    self.id = id
    self.trackName = trackName
    self.artistName = artistName
    self.albumName = albumName
    self.duration = duration
    self.instrumental = instrumental
    self.plainLyrics = plainLyrics
    self.syncedLyrics = syncedLyrics
  }

  private enum CodingKeys: String, CodingKey {
    case id, trackName, artistName, albumName, duration, instrumental, plainLyrics, syncedLyrics
  }

  /// Decodes a record; missing fields are `nil` and a missing `instrumental` is `false`.
  init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    id = try container.decodeIfPresent(Int.self, forKey: .id)
    trackName = try container.decodeIfPresent(String.self, forKey: .trackName)
    artistName = try container.decodeIfPresent(String.self, forKey: .artistName)
    albumName = try container.decodeIfPresent(String.self, forKey: .albumName)
    duration = try container.decodeIfPresent(Double.self, forKey: .duration)
    instrumental = try container.decodeIfPresent(Bool.self, forKey: .instrumental) ?? false
    plainLyrics = try container.decodeIfPresent(String.self, forKey: .plainLyrics)
    syncedLyrics = try container.decodeIfPresent(String.self, forKey: .syncedLyrics)
  }

  /// How useful the record is: 0 synced, 1 plain only, 2 instrumental, `nil` no lyrics.
  var tier: Int? {
    if instrumental { return 2 }
    if syncedDocument != nil { return 0 }
    if plainDocument != nil { return 1 }
    return nil
  }

  /// The record as a lyrics result: synced lyrics first, else plain, else `nil`.
  var result: LyricsResult? {
    if instrumental { return .instrumental(source: .online) }
    guard let document = syncedDocument ?? plainDocument else { return nil }
    return .found(document, source: .online)
  }

  /// Whether the record's duration is within `tolerance` seconds of `seconds`.
  ///
  /// An unknown duration on either side matches.
  func matches(duration seconds: Double?, tolerance: Double) -> Bool {
    guard let seconds, let duration else { return true }
    return abs(duration - seconds) <= tolerance
  }

  /// The parsed `syncedLyrics`, when they hold at least one timed line.
  private var syncedDocument: LyricsDocument? {
    guard let text = syncedLyrics, !text.isEmpty else { return nil }
    let document = LRCParser.parse(text)
    return document.isSynced && !document.lines.isEmpty ? document : nil
  }

  /// The parsed `plainLyrics`, when they hold any text.
  private var plainDocument: LyricsDocument? {
    guard let text = plainLyrics, !text.isEmpty else { return nil }
    let document = LRCParser.parse(text)
    return document.lines.contains { !$0.text.isEmpty } ? document : nil
  }
}

extension [LRCLIBRecord] {
  /// The best record for a track of `duration` seconds, or `nil` when none fits.
  ///
  /// Records outside the tolerance or without lyrics are left out. The rest are ranked by
  /// usefulness (synced, plain, instrumental), then by how close the duration is, then by
  /// the service's own order.
  func best(duration: Double?, tolerance: Double) -> LRCLIBRecord? {
    let ranked = enumerated().compactMap { index, record -> (Int, Double, Int, LRCLIBRecord)? in
      guard let tier = record.tier, record.matches(duration: duration, tolerance: tolerance)
      else { return nil }
      let distance = duration.flatMap { wanted in record.duration.map { abs($0 - wanted) } }
      return (tier, distance ?? tolerance, index, record)
    }
    return ranked.min { ($0.0, $0.1, $0.2) < ($1.0, $1.1, $1.2) }?.3
  }
}
