import Foundation

/// A configuration, and what was wrong in the file it came from.
public struct ConfigLoadResult: Sendable {
  /// The settings: the file's values where they were good, defaults elsewhere.
  public var configuration: RefrainConfiguration
  /// Everything that was wrong, in file order; empty when the file was fine or absent.
  public var problems: [ConfigProblem]
  /// The file that was read.
  public var file: URL
  /// Whether the file exists; without it every default applies and nothing is wrong.
  public var fileExists: Bool
}

extension RefrainConfiguration {
  /// Reads `$XDG_CONFIG_HOME/refrain/config.toml` (default `~/.config`); never fails.
  public static func load(
    environment: [String: String] = ProcessInfo.processInfo.environment
  ) -> ConfigLoadResult {
    load(from: ConfigPaths.configFile(environment: environment), environment: environment)
  }

  /// Reads the configuration file at `file`; a missing file gives the defaults.
  public static func load(
    from file: URL, environment: [String: String] = ProcessInfo.processInfo.environment
  ) -> ConfigLoadResult {
    let path = file.path
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
      return ConfigLoadResult(
        configuration: RefrainConfiguration(), problems: [], file: file, fileExists: false)
    }
    func failed(_ message: String, line: Int? = nil) -> ConfigLoadResult {
      let problem = ConfigProblem(file: path, line: line, key: nil, message: message)
      return ConfigLoadResult(
        configuration: RefrainConfiguration(), problems: [problem], file: file, fileExists: true)
    }
    guard !isDirectory.boolValue else {
      return failed("is a folder, not a file; Refrain uses the defaults")
    }
    guard let handle = FileHandle(forReadingAtPath: path) else {
      return failed("cannot be read (check its permissions); Refrain uses the defaults")
    }
    defer { try? handle.close() }
    let data: Data
    do {
      data = try handle.read(upToCount: ConfigReader.maxBytes + 1) ?? Data()
    } catch {
      return failed("cannot be read (\(error.localizedDescription)); Refrain uses the defaults")
    }
    guard data.count <= ConfigReader.maxBytes else {
      return failed("is larger than 1 MiB; Refrain uses the defaults for every key")
    }
    guard let text = String(data: data, encoding: .utf8) else {
      return failed(
        "is not UTF-8 text; Refrain uses the defaults for every key",
        line: firstInvalidLine(data))
    }
    let result = parse(text, file: path, environment: environment)
    return ConfigLoadResult(
      configuration: result.configuration, problems: result.problems, file: file,
      fileExists: true)
  }

  /// Reads config.toml `text`, naming `file` in problems; never fails.
  public static func parse(
    _ text: String, file: String = "config.toml",
    environment: [String: String] = ProcessInfo.processInfo.environment
  ) -> (configuration: RefrainConfiguration, problems: [ConfigProblem]) {
    ConfigReader.read(text, file: file, home: ConfigPaths.home(environment: environment))
  }

  /// The 1-based line holding the first byte sequence that is not UTF-8.
  private static func firstInvalidLine(_ data: Data) -> Int? {
    var number = 0
    for line in data.split(separator: 0x0A, omittingEmptySubsequences: false) {
      number += 1
      if String(data: Data(line), encoding: .utf8) == nil { return number }
    }
    return nil
  }
}
