import Foundation

/// How a seek moves a stream whose bytes do not map to time (a server's transcoded stream).
///
/// A track without one seeks as its decoder can: in a file, or with byte ranges.
public enum StreamSeeking: Sendable, Hashable, Codable {
  /// A seek asks for the stream again with `parameter=<whole seconds>` added to its URL, and
  /// the server starts the audio there (OpenSubsonic's `timeOffset`).
  case reRequest(parameter: String)
  /// A seek is refused for `reason`, a line for the user; playback goes on undisturbed.
  case refused(reason: String)

  /// The reason seeks are refused, or `nil` when they are not.
  public var refusal: String? {
    if case .refused(let reason) = self { return reason }
    return nil
  }
}
