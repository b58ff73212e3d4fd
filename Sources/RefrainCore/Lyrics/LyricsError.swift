import Foundation

/// Why Refrain could not load a lyrics file.
public enum LyricsError: Error, Sendable, Equatable, CustomStringConvertible {
  /// The file could not be read: it is missing, unreadable or a folder.
  case unreadable(path: String, reason: String)
  /// The file starts with `{` but is not a FLO song (`{…, "lyrics": "[mm:ss:SSS]…"}`).
  case invalidFLOSong(reason: String)

  public var description: String {
    switch self {
    case .unreadable(let path, let reason):
      return "Cannot read the lyrics file \(path): \(reason). Check the path and its permissions."
    case .invalidFLOSong(let reason):
      return
        "The lyrics file looks like JSON but is not a FLO song (\(reason)). "
        + "Pass an .lrc file or a FLO song JSON with a \"lyrics\" string."
    }
  }
}
