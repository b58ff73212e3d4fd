import Foundation
import RefrainCore
import RefrainSession

/// The full-screen player as a room member: transport goes to the room, the room's news to
/// the status line, and the Room pane shows who is there, the queue and the chat.
extension App {
  /// The listening room the session is in, or `nil`.
  var room: (any RoomChannel)? { session.room }

  /// Carries out a session command (in a room, the room decides what plays).
  func execute(_ command: Command) -> Outcome { session.execute(command) }

  /// Sends a chat message, or says why it cannot.
  func sendChat(_ text: String) {
    guard !text.trimmingCharacters(in: .whitespaces).isEmpty else { return }
    show(execute(.chat(text)))
  }

  /// In the Room pane, a printable key (other than the pane keys and `:`) or Enter starts a
  /// chat message.
  func startsChat(_ key: Key) -> Bool {
    guard room != nil, pane == .room, overlay == nil, lyricsView == nil else { return false }
    switch key {
    case .enter:
      overlay = .input(title: "chat:", editor: LineEditor(), purpose: .chat)
      return true
    case .character(let character):
      if ("1"..."6").contains(character) || character == ":" { return false }
      var editor = LineEditor()
      _ = editor.apply(key)
      overlay = .input(title: "chat:", editor: editor, purpose: .chat)
      return true
    default:
      return false
    }
  }

  /// Reads what the link wrote and shows the room's news.
  public func handleRoomLines() {
    for update in session.readRoom() { show(update) }
  }

  /// Compares what is heard with the room when a check is due.
  public func tickRoom() {
    for update in session.checkRoom() { show(update) }
  }

  /// Seconds until the room check is due.
  var roomWake: Double? { room?.follower.nextCheck() }

  private func show(_ update: RoomFollower.Update) {
    switch update {
    case .notice(let text): setStatus(TerminalSanitizer.clean(text))
    case .error(_, let message): setStatus(TerminalSanitizer.clean(message), error: true)
    case .joined(let welcome): setStatus("joined room \(TerminalSanitizer.clean(welcome.room))")
    case .link(let state, let reason):
      switch state {
      case .lost:
        let why = TerminalSanitizer.clean(reason ?? "the connection ended")
        setStatus("room lost (\(why)): playing on, reconnecting", error: true)
        log("room lost: \(reason ?? "")")
      case .refused:
        setStatus(TerminalSanitizer.clean(reason ?? "the room refused this member"), error: true)
      case .connected: break
      }
    case .chat(let message) where pane != .room:
      setStatus(
        "\(TerminalSanitizer.clean(message.from)): \(TerminalSanitizer.clean(message.text))")
    case .chat, .members, .queue, .state, .history, .corrected:
      break
    }
  }

  /// The Room pane: the room and who is there, the shared queue, and the chat about the
  /// track that is playing. Every string from the room is cleaned again before it is drawn.
  func renderRoom(into grid: inout ScreenGrid, in area: Rect) {
    guard let room else {
      grid.put(
        "Not in a listening room: refrain --room ws://HOST:PORT/rooms/NAME", x: 1, y: area.y + 1,
        maxWidth: area.width - 2, style: .dim)
      return
    }
    let follower = room.follower
    let clean = TerminalSanitizer.clean
    var y = area.y
    let bottom = area.y + area.height
    let count = follower.members.count
    var header = "Room \(clean(room.name)) · \(count) member\(count == 1 ? "" : "s")"
    if !follower.connected { header += " · reconnecting" }
    if follower.isFollowing, let error = follower.lastError {
      header += " · sync \(Int((error * 1000).rounded())) ms"
    }
    grid.put(header, x: 1, y: y, maxWidth: area.width - 2, style: .accent)
    y += 1
    let names = follower.members.map { clean($0.name) + ($0.host ? " (host)" : "") }
    grid.put(names.joined(separator: ", "), x: 1, y: y, maxWidth: area.width - 2, style: .dim)
    y += 2
    grid.put("Queue", x: 1, y: y, style: .accent)
    y += 1
    let queueRows = min(follower.queue.count, max(1, (area.height - 8) / 3))
    if follower.queue.isEmpty {
      grid.put("empty: :queue add PATH", x: 3, y: y, maxWidth: area.width - 4, style: .dim)
      y += 1
    }
    let current = follower.queue.firstIndex { $0.entry == follower.current } ?? 0
    let first = max(0, min(current, follower.queue.count - queueRows))
    for entry in follower.queue.dropFirst(first).prefix(queueRows) where y < bottom {
      let playing = entry.entry == follower.current
      let line =
        "\(playing ? "▶" : " ") \(clean(entry.title))\(entry.artist.map { " — " + clean($0) } ?? "")"
      grid.put(line, x: 1, y: y, maxWidth: area.width - 2, style: playing ? .accent : .normal)
      y += 1
    }
    y += 1
    guard y < bottom else { return }
    let about =
      follower.queue.first { $0.entry == follower.current }.map { " about \(clean($0.title))" }
      ?? ""
    grid.put("Chat\(about)", x: 1, y: y, maxWidth: area.width - 2, style: .accent)
    y += 1
    let space = bottom - y - 1
    guard space > 0 else { return }
    for message in follower.chat.suffix(space) {
      let from = clean(message.from)
      let used = grid.put(from + ":", x: 1, y: y, maxWidth: area.width - 2, style: .dim)
      grid.put(clean(message.text), x: 2 + used, y: y, maxWidth: max(0, area.width - 3 - used))
      y += 1
    }
    grid.put(
      "type to chat · Enter for a new message", x: 1, y: bottom - 1, maxWidth: area.width - 2,
      style: .dim)
  }
}
