import Foundation

/// Finds Refrain's bundled resources wherever the binary was installed.
enum ResourceLocator {
  /// The Resources folder: `$REFRAIN_RESOURCES`, `../share/refrain` beside the binary, or the
  /// nearest `Resources/` above the binary (a build tree).
  static var resources: URL? {
    let manager = FileManager.default
    if let override = ProcessInfo.processInfo.environment["REFRAIN_RESOURCES"] {
      return URL(fileURLWithPath: override)
    }
    let binary = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
    var folder = binary.deletingLastPathComponent()
    let installed = folder.appendingPathComponent("../share/refrain").standardized
    if manager.fileExists(atPath: installed.appendingPathComponent("sample").path) {
      return installed
    }
    for _ in 0..<6 {
      let candidate = folder.appendingPathComponent("Resources")
      if manager.fileExists(atPath: candidate.appendingPathComponent("sample").path) {
        return candidate
      }
      folder = folder.deletingLastPathComponent()
    }
    return nil
  }

  /// The small sample track `make run` plays.
  static var sampleTrack: URL? {
    resources?.appendingPathComponent("sample/refrain-sample.mp3")
  }
}
