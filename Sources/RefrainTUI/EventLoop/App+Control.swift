import Foundation
import RefrainCatalog
import RefrainCore
import RefrainSession

/// Why a command from `refrain ctl` or the prompt could not be carried out.
public struct CommandFailure: Error, Sendable, Equatable, CustomStringConvertible {
  /// The one-line reason.
  public let message: String

  /// Creates a failure.
  public init(_ message: String) { self.message = message }

  public var description: String { message }
}

/// Commands from `refrain ctl` and playlist edits by ID.
extension App {
  /// Carries out a command from `refrain ctl` and returns its answer: `ok`, or JSON.
  ///
  /// A playlist edit is answered only after its transaction committed, so an `ok` the
  /// client received survives the process being killed right after.
  public func answer(remote command: Command) throws(CommandFailure) -> String {
    switch command {
    case .status:
      return statusJSON()
    case .playlist(let edit):
      return try perform(edit)
    case .quit:
      handle(remote: command)
      return "ok"
    default:
      let outcome = session.execute(command)
      if case .failed(let reason) = outcome { throw CommandFailure(reason) }
      if !show(outcome) { handle(command) }
      return "ok"
    }
  }

  /// Applies a playlist edit from the prompt, reporting on the status line.
  func runPlaylistEdit(_ edit: Command.PlaylistEdit) {
    do {
      let answer = try perform(edit)
      setStatus(answer == "ok" ? "playlist updated" : answer)
    } catch {
      setStatus(error.message, error: true)
    }
  }

  /// Applies a playlist edit; returns `ok`, or one line of JSON for `list`, `show` and `create`.
  func perform(_ edit: Command.PlaylistEdit) throws(CommandFailure) -> String {
    guard let library else { throw CommandFailure("the library is not available") }
    do {
      switch edit {
      case .list:
        return "[" + (try library.playlists().map(Self.json(for:)).joined(separator: ",")) + "]"
      case .show(let id):
        let lines = try library.entries(inPlaylist: id).map { entry in
          "{\"position\":\(entry.position + 1),\"title\":\(JSONText.quote(entry.track.title)),"
            + "\"artist\":\(entry.track.artist.map(JSONText.quote) ?? "null"),"
            + "\"provider\":\(JSONText.quote(entry.track.provider)),"
            + "\"id\":\(JSONText.quote(entry.track.id))}"
        }
        return "[" + lines.joined(separator: ",") + "]"
      case .create(let name):
        return Self.json(for: try library.createPlaylist(named: name))
      case .rename(let id, let name):
        try library.renamePlaylist(id, to: name)
      case .delete(let id):
        try library.deletePlaylist(id)
      case .add(let id, let item):
        try library.addTracks([try track(for: item)], toPlaylist: id)
      case .remove(let id, let position):
        let entries = try library.entries(inPlaylist: id)
        guard entries.indices.contains(position - 1) else {
          throw CommandFailure(Self.outside(position, count: entries.count))
        }
        try library.removeEntries([entries[position - 1].entryID], fromPlaylist: id)
      case .move(let id, let from, let to):
        let count = try library.playlist(id).trackCount
        // Positions parse as 1 or more, so only the upper bound needs checking.
        for position in [from, to] where position > count {
          throw CommandFailure(Self.outside(position, count: count))
        }
        try library.moveEntry(inPlaylist: id, from: from - 1, to: to - 1)
      }
    } catch let failure as CommandFailure {
      throw failure
    } catch {
      throw CommandFailure("\(error)")
    }
    refreshLibraryDetail()
    return "ok"
  }

  /// The track a playlist `add` names: `current` (what is playing), a URL or a file.
  private func track(for item: String) throws(CommandFailure) -> CatalogTrack {
    if item.lowercased() == "current" {
      guard let playing = presenter.queue.current else {
        throw CommandFailure("nothing is playing to add")
      }
      return catalogTrack(for: playing)
    }
    let track = Track(argument: Session.expandingHome(item))
    if track.location.isFileURL, !FileManager.default.fileExists(atPath: track.location.path) {
      throw CommandFailure("no such file: \(track.location.path)")
    }
    return catalogTrack(for: track)
  }

  private static func json(for playlist: LibraryPlaylist) -> String {
    "{\"id\":\(playlist.id),\"name\":\(JSONText.quote(playlist.name)),"
      + "\"tracks\":\(playlist.trackCount)}"
  }

  private static func outside(_ position: Int, count: Int) -> String {
    "position \(position) is outside the playlist (it has \(count) track\(count == 1 ? "" : "s"))"
  }
}
