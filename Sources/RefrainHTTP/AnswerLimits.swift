import Foundation

/// The most a request reads of an answer, and how long it waits for the next bytes: every
/// network answer Refrain reads has both, so a hostile or broken server can neither fill
/// memory nor hold a request forever.
///
/// | kind | ``maxBytes`` | ``progressDeadline`` | read by |
/// | --- | --- | --- | --- |
/// | ``catalog`` | 16 MiB | 10 s | Subsonic, Spotify and Deezer JSON (search, albums, playlists, synced lyrics) |
/// | ``lyrics`` | 1 MiB | 10 s | LRCLIB look-ups and publishing |
/// | ``service`` | 1 MiB | 10 s | ListenBrainz and Last.fm answers, Spotify's token |
/// | ``cover`` | 16 MiB | 10 s | cover images |
///
/// An answer that says (`Content-Length`) or turns out to be larger than ``maxBytes`` is
/// dropped as soon as that is known, with ``NetworkError/tooLarge(limit:kind:)``; one that
/// sends nothing for ``progressDeadline`` seconds (before its headers, or between two
/// pieces of its body) ends with ``NetworkError/stalled(seconds:)``.
public struct AnswerLimits: Sendable, Hashable {
  /// What the answers are, for messages ("a catalog answer").
  public var kind: String
  /// The most bytes of a body that are read.
  public var maxBytes: Int
  /// The most seconds a request waits with nothing arriving.
  public var progressDeadline: TimeInterval

  /// Creates limits.
  public init(kind: String, maxBytes: Int, progressDeadline: TimeInterval = 10) {
    self.kind = kind
    self.maxBytes = maxBytes
    self.progressDeadline = progressDeadline
  }

  /// A catalog's JSON (Subsonic, Spotify, Deezer): 16 MiB, 10 s.
  public static let catalog = AnswerLimits(kind: "a catalog answer", maxBytes: 16 << 20)
  /// Lyrics (LRCLIB): 1 MiB, 10 s.
  public static let lyrics = AnswerLimits(kind: "a lyrics answer", maxBytes: 1 << 20)
  /// A service's short answers (scrobbling, tokens): 1 MiB, 10 s.
  public static let service = AnswerLimits(kind: "a service answer", maxBytes: 1 << 20)
  /// A cover image: 16 MiB, 10 s.
  public static let cover = AnswerLimits(kind: "a cover image", maxBytes: 16 << 20)

  /// The cap as people say it: "16 MiB", "1 MiB", "512 KiB".
  public var capText: String {
    if maxBytes >= 1 << 20, maxBytes % (1 << 20) == 0 { return "\(maxBytes >> 20) MiB" }
    if maxBytes >= 1 << 10, maxBytes % (1 << 10) == 0 { return "\(maxBytes >> 10) KiB" }
    return "\(maxBytes) bytes"
  }
}
