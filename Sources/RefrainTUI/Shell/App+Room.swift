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
    guard room != nil, pane == .room, overlay == nil, lyricsView == nil,
      let chat = RoomPane.chatInput(startedBy: key)
    else { return false }
    overlay = chat
    return true
  }

  /// Shows the Room pane on entering a room; on leaving, a pane that exists outside rooms.
  func roomChanged() {
    if room != nil {
      pane = .room
      lyricsView = nil
    } else if pane == .room {
      pane = .player
    }
  }

  /// Shows the room's news (what the link wrote, or a check's correction).
  public func show(_ updates: [RoomFollower.Update]) {
    for update in updates { show(update) }
  }

  /// Seconds until the room check is due.
  var roomWake: Double? { room?.follower.nextCheck() }

  private func show(_ update: RoomFollower.Update) {
    if case .link(.lost, let reason) = update { log("room lost: \(reason ?? "")") }
    if case .chat = update, pane == .room { return }  // the pane shows it
    if let line = update.statusLine { setStatus(line.text, error: line.isError) }
  }
}
