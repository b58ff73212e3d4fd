import Foundation
import RefrainCore
import RefrainTags

/// The audio files a room server shares: every file under each library folder with an
/// extension the local scanner indexes (``audioExtensions``), named by its path relative to
/// that folder (the first folder that holds a path wins), each with the media type its first
/// bytes show.
///
/// A symlink is shared as the file it points to when that file (every link on the way
/// resolved) is inside the same library folder; one that leaves the folder, or dangles, is
/// neither listed nor served.
public struct SharedLibrary: Sendable {
  /// One shared file.
  public struct Item: Sendable, Equatable {
    public var track: RoomLibraryTrack
    /// The file's real path: its symlinks resolved, inside its library folder.
    public var file: String
    /// The library folder it was found in (a real path).
    var root: String
    /// Its `Content-Type`, from its first bytes (``mediaType(head:name:)``).
    public var mediaType: String
  }

  /// The extensions shared, in any case: those the local library's scan indexes (MP3, FLAC,
  /// Ogg Vorbis, Opus, WAV, M4A/MP4 and ADTS AAC).
  public static let audioExtensions: Set<String> = AudioFormat.roomExtensions

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
      guard let real = realpath(folder.standardizedFileURL.path, nil) else { continue }
      let root = String(cString: real)
      free(real)
      for relative in Self.audioFiles(under: root) where items[relative] == nil {
        guard let file = Self.resolved(root + "/" + relative, inside: root) else { continue }
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
        items[relative] = Item(
          track: track, file: file, root: root,
          mediaType: Self.mediaType(head: Self.head(of: file), name: file)
        )
      }
    }
    self.items = items
    tracks = items.values.map(\.track).sorted { $0.path < $1.path }
  }

  /// The shared file named `path`, or `nil` when there is none (a path that tries to leave
  /// its folder names nothing). Its `file` is the real path (symlinks resolved) of a regular
  /// file, checked again now to be inside its library folder: a link changed to point out of
  /// the library after the scan names nothing.
  public func item(_ path: String) -> Item? {
    guard var item = items[path] else { return nil }
    guard let file = Self.resolved(item.root + "/" + item.track.path, inside: item.root) else {
      return nil
    }
    item.file = file
    return item
  }

  /// The real path of `path` (every symlink on the way resolved) when it is a regular file
  /// inside the folder `root` (itself a real path); `nil` when it leaves `root`, dangles or
  /// is not a regular file.
  static func resolved(_ path: String, inside root: String) -> String? {
    guard let real = realpath(path, nil) else { return nil }
    defer { free(real) }
    let file = String(cString: real)
    let prefix = root.hasSuffix("/") ? root : root + "/"
    guard file.hasPrefix(prefix) else { return nil }
    var status = stat()
    guard stat(file, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { return nil }
    return file
  }

  /// The media type of a file that starts with `head`: told by its bytes as the player tells
  /// its decoder, so a FLAC named `.mp3` is served as FLAC; by the extension of `name` when
  /// the bytes say nothing (`audio/mpeg` when that says nothing either).
  public static func mediaType(head: [UInt8], name: String) -> String {
    func at(_ offset: Int, _ text: String) -> Bool {
      head.count >= offset + text.utf8.count
        && head[offset..<offset + text.utf8.count].elementsEqual(text.utf8)
    }
    if at(0, "fLaC") { return "audio/flac" }
    if at(0, "OggS") { return "audio/ogg" }
    if (at(0, "RIFF") || at(0, "RF64")) && at(8, "WAVE") { return "audio/wav" }
    if at(4, "ftyp") { return "audio/mp4" }
    if at(0, "ID3") { return "audio/mpeg" }
    switch (name as NSString).pathExtension.lowercased() {
    case "flac": return "audio/flac"
    case "ogg", "oga", "opus": return "audio/ogg"
    case "wav": return "audio/wav"
    case "m4a", "mp4": return "audio/mp4"
    case "aac": return "audio/aac"
    default: return "audio/mpeg"
    }
  }

  /// Up to the first 12 bytes of `file`; none when it cannot be read.
  private static func head(of file: String) -> [UInt8] {
    guard let handle = FileHandle(forReadingAtPath: file) else { return [] }
    defer { try? handle.close() }
    return [UInt8]((try? handle.read(upToCount: 12)) ?? Data())
  }

  /// The audio files under `root` (by ``audioExtensions``), as paths relative to it.
  private static func audioFiles(under root: String) -> [String] {
    guard let walker = FileManager.default.enumerator(atPath: root) else { return [] }
    var found: [String] = []
    while let relative = walker.nextObject() as? String {
      let name = (relative as NSString).lastPathComponent
      if name.hasPrefix(".") {
        walker.skipDescendants()
        continue
      }
      let dot = name.lastIndex(of: ".")
      guard let dot, dot > name.startIndex,
        audioExtensions.contains(name[name.index(after: dot)...].lowercased())
      else { continue }
      var isFolder: ObjCBool = false
      guard FileManager.default.fileExists(atPath: root + "/" + relative, isDirectory: &isFolder),
        !isFolder.boolValue
      else { continue }
      found.append(relative)
    }
    return found
  }
}
