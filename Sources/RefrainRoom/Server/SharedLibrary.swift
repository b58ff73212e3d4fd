import Foundation
import RefrainCore

/// The MP3s a room server shares: every `.mp3` under each library folder, named by its path
/// relative to that folder (the first folder that holds a path wins).
public struct SharedLibrary: Sendable {
  /// One shared file.
  public struct Item: Sendable, Equatable {
    public var track: RoomLibraryTrack
    /// The file's absolute path.
    public var file: String
  }

  /// What the server knows of a file's tags.
  public typealias TagLookup =
    @Sendable (_ path: String) -> (
      title: String?, artist: String?, album: String?, duration: Double?
    )

  /// The tracks, sorted by path.
  public let tracks: [RoomLibraryTrack]
  private let items: [String: Item]

  /// Scans `folders` (recursively; hidden files and folders are skipped).
  public init(folders: [URL], tags: TagLookup) {
    var items: [String: Item] = [:]
    for folder in folders {
      let root = folder.standardizedFileURL.resolvingSymlinksInPath().path
      for relative in Self.mp3s(under: root) where items[relative] == nil {
        let file = root + "/" + relative
        let found = tags(file)
        let title =
          found.title.map(TerminalSanitizer.clean).flatMap { $0.isEmpty ? nil : $0 }
          ?? TerminalSanitizer.clean(
            ((relative as NSString).lastPathComponent as NSString).deletingPathExtension)
        let track = RoomLibraryTrack(
          path: relative, title: title,
          artist: found.artist.map(TerminalSanitizer.clean).flatMap { $0.isEmpty ? nil : $0 },
          album: found.album.map(TerminalSanitizer.clean).flatMap { $0.isEmpty ? nil : $0 },
          duration: found.duration,
          replayGain: (try? TagFormats.replayGain(of: URL(fileURLWithPath: file))).flatMap {
            $0.isEmpty ? nil : $0
          })
        items[relative] = Item(track: track, file: file)
      }
    }
    self.items = items
    tracks = items.values.map(\.track).sorted { $0.path < $1.path }
  }

  /// The shared file named `path`, or `nil` when there is none (a path that tries to leave
  /// its folder names nothing).
  public func item(_ path: String) -> Item? { items[path] }

  /// The `.mp3` files under `root`, as paths relative to it.
  private static func mp3s(under root: String) -> [String] {
    guard let walker = FileManager.default.enumerator(atPath: root) else { return [] }
    var found: [String] = []
    while let relative = walker.nextObject() as? String {
      let name = (relative as NSString).lastPathComponent
      if name.hasPrefix(".") {
        walker.skipDescendants()
        continue
      }
      guard name.lowercased().hasSuffix(".mp3") else { continue }
      var isFolder: ObjCBool = false
      guard FileManager.default.fileExists(atPath: root + "/" + relative, isDirectory: &isFolder),
        !isFolder.boolValue
      else { continue }
      found.append(relative)
    }
    return found
  }
}
