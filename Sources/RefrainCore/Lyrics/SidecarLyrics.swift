import Foundation

/// Finds the `.lrc` file that sits next to an audio file (same base name, any case).
public enum SidecarLyrics {
  /// The sidecar lyrics path for a local track, if one exists.
  public static func find(for track: Track) -> String? {
    guard track.location.isFileURL else { return nil }
    let audio = track.location
    let folder = audio.deletingLastPathComponent()
    let base = audio.deletingPathExtension().lastPathComponent
    guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path) else {
      return nil
    }
    let match = names.sorted().first { name in
      let candidate = URL(fileURLWithPath: name)
      return candidate.pathExtension.lowercased() == "lrc"
        && candidate.deletingPathExtension().lastPathComponent == base
    }
    return match.map { folder.appendingPathComponent($0).path }
  }
}
