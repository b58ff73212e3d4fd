import Foundation
import RefrainArt
import RefrainCore
import RefrainSession

/// What the full-screen player needs from the composition root.
public struct AppDependencies {
  /// The listening session this front end shows and drives.
  public var session: Session
  public var provider: any CatalogProvider
  public var keyMap: KeyMap
  /// A notice shown at start, e.g. that no audio server was reached.
  public var startupNotice: String?
  /// How the lyrics view marks the line being sung.
  public var lyricHighlight: LyricHighlight
  /// Whether the terminal shows colours (`display.colors`, the theme, `NO_COLOR`): without
  /// them the bold sung line gets a ▶ beside it too.
  public var colors: Bool
  /// The monotonic clock in seconds, read from the first moment the app exists.
  public var now: () -> Double
  /// Where covers come from; `nil` draws the placeholder box.
  public var covers: (any CoverProvider)?
  /// Writes one line to the log (never to the screen).
  public var log: @Sendable (String) -> Void
  /// Whether Korean and Japanese lyrics show a romanization line at start (`t` toggles it).
  public var romanize = false

  /// Creates the dependencies.
  public init(
    session: Session, provider: any CatalogProvider,
    keyMap: KeyMap = .standard, startupNotice: String? = nil,
    lyricHighlight: LyricHighlight = .line, colors: Bool = true,
    now: @escaping () -> Double = { ProcessInfo.processInfo.systemUptime },
    covers: (any CoverProvider)? = nil, log: @escaping @Sendable (String) -> Void = { _ in }
  ) {
    self.covers = covers
    self.log = log
    self.session = session
    self.provider = provider
    self.keyMap = keyMap
    self.startupNotice = startupNotice
    self.lyricHighlight = lyricHighlight
    self.colors = colors
    self.now = now
  }
}
