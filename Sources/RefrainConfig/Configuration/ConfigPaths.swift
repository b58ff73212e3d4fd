import Foundation

/// Where Refrain's configuration and logs live, following the XDG base directories.
public enum ConfigPaths {
  /// `$XDG_CONFIG_HOME/refrain/config.toml`, or `~/.config/refrain/config.toml`.
  public static func configFile(environment: [String: String]) -> URL {
    base("XDG_CONFIG_HOME", fallback: ".config", environment: environment)
      .appendingPathComponent("refrain/config.toml", isDirectory: false)
  }

  /// `$XDG_STATE_HOME/refrain`, or `~/.local/state/refrain`: where the log is written.
  public static func stateDirectory(environment: [String: String]) -> URL {
    base("XDG_STATE_HOME", fallback: ".local/state", environment: environment)
      .appendingPathComponent("refrain", isDirectory: true)
  }

  /// The user's home directory: `HOME` when absolute, else the account's.
  static func home(environment: [String: String]) -> String {
    environment["HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil }
      ?? FileManager.default.homeDirectoryForCurrentUser.path
  }

  /// The XDG directory in `variable`; the spec ignores values that are empty or relative.
  private static func base(_ variable: String, fallback: String, environment: [String: String])
    -> URL
  {
    if let value = environment[variable], value.hasPrefix("/") {
      return URL(fileURLWithPath: value, isDirectory: true)
    }
    return URL(fileURLWithPath: home(environment: environment), isDirectory: true)
      .appendingPathComponent(fallback, isDirectory: true)
  }
}
