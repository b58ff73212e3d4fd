import Foundation
import RefrainCore
import RefrainSession

/// Commands from `refrain ctl` and playlist edits by ID.
extension App {
  /// What a command from `refrain ctl` answered: `ok` or one line of JSON, or why it failed.
  public typealias RemoteAnswer = Session.Answer

  /// Carries out a command from `refrain ctl` and calls `reply` with its answer on the main
  /// loop, as the control socket does: the status with the open pane, then the session's
  /// commands, then the full-screen player's own (``answerOwn(_:reply:)``).
  public func answer(remote command: Command, reply: @escaping (RemoteAnswer) -> Void) {
    if command == .status { return reply(.success(statusJSON())) }
    if session.answer(command, reply: reply) { return }
    _ = answerOwn(command, reply: reply)
  }

  /// The full-screen player's own verbs from `refrain ctl`: playlist edits (answered once
  /// their transaction committed, so an `ok` the client received survives the process being
  /// killed right after), `quit` (which never asks), and what a key could do.
  public func answerOwn(_ command: Command, reply: @escaping (RemoteAnswer) -> Void) -> Bool {
    switch command {
    case .playlist(let edit):
      perform(edit, then: reply)
    case .quit:
      handle(remote: command)
      reply(.success("ok"))
    default:
      handle(command)
      reply(.success("ok"))
    }
    return true
  }

  /// Applies a playlist edit from the prompt; the status line reports once it is stored.
  func runPlaylistEdit(_ edit: Command.PlaylistEdit) {
    perform(edit) { [weak self] answer in
      switch answer {
      case .success(let text): self?.setStatus(text == "ok" ? "playlist updated" : text)
      case .failure(let failure): self?.setStatus(failure.message, error: true)
      }
    }
  }

  /// Applies a playlist edit in the background, after every library call asked for before,
  /// then calls `then` on the main loop with `ok`, or one line of JSON for `list`, `show` and
  /// `create`.
  func perform(_ edit: Command.PlaylistEdit, then: @escaping (RemoteAnswer) -> Void) {
    guard library != nil else {
      return then(.failure(CommandFailure("the library is not available")))
    }
    let work: @Sendable (any LibraryStorage) throws -> String
    switch edit {
    case .list:
      work = { SessionJSON.line(try $0.playlists().map(PlaylistLine.init)) }
    case .show(let id):
      work = {
        SessionJSON.line(try $0.entries(inPlaylist: id, offset: 0, limit: nil).map(EntryLine.init))
      }
    case .create(let name):
      work = { SessionJSON.line(PlaylistLine(try $0.createPlaylist(named: name))) }
    case .rename(let id, let name):
      work = { library in
        try library.renamePlaylist(id, to: name)
        return "ok"
      }
    case .delete(let id):
      work = { library in
        try library.deletePlaylist(id)
        return "ok"
      }
    case .add(let id, let item):
      let add: @Sendable () throws -> CatalogTrack
      if item.lowercased() == "current" {
        guard let playing = presenter.queue.current else {
          return then(.failure(CommandFailure("nothing is playing to add")))
        }
        let track = catalogTrack(for: playing)
        add = { track }
      } else {
        // A file is checked and described by its tags in the background, as `queue add`'s.
        let file = Track(argument: Session.expandingHome(item))
        let describe = session.describe
        add = {
          if file.location.isFileURL, !FileManager.default.fileExists(atPath: file.location.path) {
            throw CommandFailure("no such file: \(file.location.path)")
          }
          return Self.catalogTrack(describing: describe?(file) ?? file)
        }
      }
      work = { library in
        try library.addTracks([try add()], toPlaylist: id, at: nil)
        return "ok"
      }
    case .remove(let id, let position):
      work = { library in
        let entries = try library.entries(inPlaylist: id, offset: 0, limit: nil)
        guard entries.indices.contains(position - 1) else {
          throw CommandFailure(outside(position, count: entries.count))
        }
        try library.removeEntries([entries[position - 1].entryID], fromPlaylist: id)
        return "ok"
      }
    case .move(let id, let from, let to):
      work = { library in
        let count = try library.playlist(id).trackCount
        // Positions parse as 1 or more, so only the upper bound needs checking.
        for position in [from, to] where position > count {
          throw CommandFailure(outside(position, count: count))
        }
        try library.moveEntry(inPlaylist: id, from: from - 1, to: to - 1)
        return "ok"
      }
    }
    let finish: (App, LibraryResult<String>) -> Void = { _, result in
      then(result.mapError { $0 as? CommandFailure ?? CommandFailure("\($0)") })
    }
    switch edit {
    case .list, .show: withLibrary(work, then: finish)
    default: changeLibrary(work, then: finish)
    }
  }
}

/// A playlist as `refrain ctl playlist list` and `create` print it.
private struct PlaylistLine: Encodable {
  let id: Int64
  let name: String
  let tracks: Int

  init(_ playlist: LibraryPlaylist) {
    id = playlist.id
    name = playlist.name
    tracks = playlist.trackCount
  }
}

/// A playlist entry as `refrain ctl playlist show` prints it: `position` counts from 1, and
/// `artist` is null when unknown.
private struct EntryLine: Encodable {
  let position: Int
  let title: String
  let artist: String?
  let provider: String
  let id: String

  init(_ entry: PlaylistEntry) {
    position = entry.position + 1
    title = entry.track.title
    artist = entry.track.artist
    provider = entry.track.provider
    id = entry.track.id
  }

  private enum CodingKeys: String, CodingKey {
    case position, title, artist, provider, id
  }

  func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(position, forKey: .position)
    try container.encode(title, forKey: .title)
    try container.encode(artist, forKey: .artist)  // null, not left out, when unknown
    try container.encode(provider, forKey: .provider)
    try container.encode(id, forKey: .id)
  }
}

/// Why a playlist position cannot be used: `position 3 is outside the playlist (it has 1 track)`.
private func outside(_ position: Int, count: Int) -> String {
  "position \(position) is outside the playlist (it has \(count) track\(count == 1 ? "" : "s"))"
}
