import RefrainCore
import RefrainSession

/// The Room pane (key `6`, in a listening room): the room and who is there, the shared
/// queue, and the chat about the track that is playing.
///
/// It draws what the session's room holds and changes nothing; typing a message is the
/// shell's (an input overlay), and sending it is the session's (`chat TEXT`).
struct RoomPane: Pane {
  /// The chat line a key opens on the Room pane: Enter opens it empty, a printable key
  /// (other than the pane keys and `:`) opens it holding that character; `nil` for others.
  static func chatInput(startedBy key: Key) -> Overlay? {
    switch key {
    case .enter:
      return .input(title: "chat:", editor: LineEditor(), purpose: .chat)
    case .character(let character):
      if ("1"..."6").contains(character) || character == ":" { return nil }
      var editor = LineEditor()
      _ = editor.apply(key)
      return .input(title: "chat:", editor: editor, purpose: .chat)
    default:
      return nil
    }
  }

  /// The Player pane's line on the room: "Room friday · 3 members".
  static func line(for room: any RoomChannel) -> String {
    let count = room.follower.members.count
    return "Room \(TerminalSanitizer.clean(room.name)) · \(count) member\(count == 1 ? "" : "s")"
  }

  /// Draws `room` into `area`, or how to join one; every string from the room is cleaned
  /// again before it is drawn.
  func render(
    _ room: (any RoomChannel)?, into grid: inout ScreenGrid, in area: Rect,
    layout: inout FrameLayout
  ) {
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
