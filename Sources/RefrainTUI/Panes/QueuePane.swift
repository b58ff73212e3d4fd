import RefrainCore
import RefrainSession

/// The Queue pane (key `5`): what plays next, the current entry marked. `x` removes the
/// selected entry, `J`/`K` move it (the selection follows). In a listening room it is the
/// room's queue, and those edits are the room's, for everyone.
struct QueuePane: ListSource {
  func rows(_ content: ListContent) -> [ListRow] { Self.rows(content.queue) }

  /// The queue's rows, or how to fill it when it is empty.
  static func rows(_ queue: QueueView) -> [ListRow] {
    let whose = queue.room.map { "Room \(TerminalSanitizer.clean($0))'s queue" } ?? "Queue"
    guard !queue.isEmpty else {
      return [
        ListRow(
          text: "\(queue.room == nil ? "The queue" : "\(whose)") is empty: press a on a track or "
            + "P on a list.", style: .dim, isHeader: true)
      ]
    }
    return [.header("\(whose) (\(queue.count))")]
      + queue.entries.enumerated().map { index, entry in
        let track = entry.track
        let current = index == queue.currentIndex
        let reason = entry.unplayable
        return ListRow(
          text: "\(current ? "▶ " : "  ")\(track.title)\(track.artist.map { " — \($0)" } ?? "")",
          detail: reason == nil ? ClockText.minutesSeconds(track.duration) : "unplayable",
          style: current ? .current : (reason == nil ? .normal : .dim), action: .queueEntry(index))
      }
  }

  func edit(
    _ command: Command, on action: ListRow.Action, cursor: inout ListCursor, rows: [ListRow]
  )
    -> PaneResult
  {
    guard case .queueEntry(let index) = action else { return .ignored }
    switch command {
    case .remove:
      return .effect(.removeFromQueue(index))
    case .moveItemDown:
      cursor.move(.down, rows: rows, page: 1)
      return .effect(.moveInQueue(from: index, to: index + 1))
    case .moveItemUp:
      cursor.move(.up, rows: rows, page: 1)
      return .effect(.moveInQueue(from: index, to: index - 1))
    default:
      return .ignored
    }
  }
}
