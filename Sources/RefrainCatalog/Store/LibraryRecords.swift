import Foundation
import RefrainCore

/// A lyrics text kept so it need not be fetched again.
public struct CachedLyrics: Sendable, Hashable, Codable {
  /// The key it was stored under (for example artist, title and duration).
  public var key: String
  /// The lyrics (LRC or plain text).
  public var text: String
  /// Where it came from (`lrclib`, …), when known.
  public var source: String?
  /// When it was fetched.
  public var fetchedAt: Date

  /// Creates a cache entry value.
  public init(key: String, text: String, source: String? = nil, fetchedAt: Date) {
    self.key = key
    self.text = text
    self.source = source
    self.fetchedAt = fetchedAt
  }
}
