import Foundation

/// Where the file lyrics cache lives, following the XDG base directories.
enum LyricsStoragePaths {
  /// `$XDG_CACHE_HOME/refrain/lyrics`, or `~/.cache/refrain/lyrics`.
  static func cacheDirectory(environment: [String: String]) -> URL {
    base("XDG_CACHE_HOME", fallback: ".cache", environment: environment)
      .appendingPathComponent("refrain/lyrics", isDirectory: true)
  }

  /// The XDG directory in `variable`; the spec ignores values that are empty or relative.
  private static func base(_ variable: String, fallback: String, environment: [String: String])
    -> URL
  {
    if let value = environment[variable], value.hasPrefix("/") {
      return URL(fileURLWithPath: value, isDirectory: true)
    }
    let home =
      environment["HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil }
      ?? FileManager.default.homeDirectoryForCurrentUser.path
    return URL(fileURLWithPath: home, isDirectory: true)
      .appendingPathComponent(fallback, isDirectory: true)
  }
}
