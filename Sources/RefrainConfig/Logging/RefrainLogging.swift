import Foundation
import Logging

/// Sets up Refrain's log: `$XDG_STATE_HOME/refrain/refrain.log`, 1 MiB, three old files kept.
public enum RefrainLogging {
  /// The size at which the log is rotated, in bytes.
  public static let maxFileBytes = 1 << 20
  /// How many rotated logs (`refrain.log.1` … `refrain.log.3`) are kept.
  public static let keptFiles = 3
  /// The environment variable that sets the level: trace, debug, info, notice, warning, error.
  public static let levelVariable = "REFRAIN_LOG_LEVEL"

  /// `$XDG_STATE_HOME/refrain/refrain.log`, or `~/.local/state/refrain/refrain.log`.
  public static func logFile(environment: [String: String]) -> URL {
    ConfigPaths.stateDirectory(environment: environment)
      .appendingPathComponent("refrain.log", isDirectory: false)
  }

  /// Routes every `Logger` in the process to Refrain's log file; only the first call acts.
  ///
  /// swift-log allows one bootstrap per process, so later calls change nothing and return
  /// the file chosen by the first. `level` defaults to `REFRAIN_LOG_LEVEL`, else `info`.
  @discardableResult
  public static func bootstrap(
    environment: [String: String] = ProcessInfo.processInfo.environment,
    level: Logger.Level? = nil
  ) -> URL {
    state.once {
      let url = logFile(environment: environment)
      let file = RotatingLogFile(url: url, maxBytes: maxFileBytes, keep: keptFiles)
      let chosen =
        level ?? environment[levelVariable].flatMap { Logger.Level(rawValue: $0.lowercased()) }
        ?? .info
      LoggingSystem.bootstrap { label in FileLogHandler(label: label, file: file, level: chosen) }
      return url
    }
  }

  /// `text` with URL queries, signatures and tokens replaced by `<redacted>`.
  ///
  /// Every line the log handler writes has been through this; call it too for text that
  /// goes elsewhere, such as a status line that shows a URL.
  public static func redact(_ text: String) -> String {
    LogRedaction.redact(text)
  }

  private static let state = BootstrapState()

  /// Remembers the first bootstrap's file, under a lock.
  final class BootstrapState: @unchecked Sendable {
    private let lock = NSLock()
    private var file: URL?

    func once(_ body: () -> URL) -> URL {
      lock.lock()
      defer { lock.unlock() }
      if let file { return file }
      let url = body()
      file = url
      return url
    }
  }
}
