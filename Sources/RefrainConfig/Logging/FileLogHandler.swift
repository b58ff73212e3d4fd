import Foundation
import Logging

/// A swift-log handler that appends one redacted line per entry to a ``RotatingLogFile``.
///
/// It never writes to the terminal, so it is safe while the full-screen player owns it.
public struct FileLogHandler: LogHandler {
  /// The logger's label, shown in brackets on every line.
  public let label: String
  public var logLevel: Logger.Level
  public var metadata: Logger.Metadata = [:]
  public var metadataProvider: Logger.MetadataProvider?

  private let file: RotatingLogFile
  private let now: @Sendable () -> Date

  /// Creates a handler for `label` that writes to `file`; `now` is the clock for timestamps.
  public init(
    label: String, file: RotatingLogFile, level: Logger.Level = .info,
    metadataProvider: Logger.MetadataProvider? = nil,
    now: @escaping @Sendable () -> Date = { Date() }
  ) {
    self.label = label
    self.file = file
    self.logLevel = level
    self.metadataProvider = metadataProvider
    self.now = now
  }

  public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
    get { metadata[key] }
    set { metadata[key] = newValue }
  }

  public func log(event: LogEvent) {
    var merged = metadata
    if let provided = metadataProvider?.get() {
      merged.merge(provided) { _, new in new }
    }
    if let own = event.metadata {
      merged.merge(own) { _, new in new }
    }
    if let error = event.error {
      merged["error"] = .string(String(describing: error))
    }
    file.write(
      LogLineFormat.line(
        date: now(), level: event.level, label: label, message: event.message.description,
        metadata: merged))
  }
}
