/// A credential from the configuration, which never shows its value when printed, logged,
/// interpolated or dumped.
///
/// `description`, `debugDescription` and its mirror all give `<redacted>`, so a
/// configuration printed whole (`print(configuration)`, `dump`, a log line) leaks nothing.
/// Only ``revealed`` gives the text, for the one request that sends it.
public struct SecretText: Sendable, Hashable, CustomStringConvertible,
  CustomDebugStringConvertible, CustomReflectable
{
  /// What every printed form shows.
  public static let placeholder = "<redacted>"

  /// The credential itself; read it only to put it in a request.
  public let revealed: String

  /// Wraps a credential.
  public init(_ revealed: String) { self.revealed = revealed }

  /// Whether `text` can be a credential: no white space and no control characters.
  static func isOneWord(_ text: String) -> Bool {
    !text.unicodeScalars.contains {
      $0.properties.generalCategory == .control || $0.properties.isWhitespace
    }
  }

  public var description: String { Self.placeholder }
  public var debugDescription: String { Self.placeholder }
  public var customMirror: Mirror { Mirror(self, children: [], displayStyle: .struct) }
}
