import RefrainCore

/// The Queue pane (key `4`): what plays next, the current entry marked. `x` removes the
/// selected entry, `J`/`K` move it (the selection follows).
struct QueuePane: ListSource {
  func rows(_ content: ListContent) -> [ListRow] { Self.rows(content.queue) }

  /// The queue's rows, or how to fill it when it is empty.
  static func rows(_ queue: PlayQueue) -> [ListRow] {
    guard !queue.isEmpty else {
      return [
        ListRow(
          text: "The queue is empty: press a on a track or P on a list.", style: .dim,
          isHeader: true)
      ]
    }
    return [.header("Queue (\(queue.count))")]
      + queue.tracks.enumerated().map { index, track in
        let current = index == queue.currentIndex
        let reason = queue.unplayableReason(at: index)
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
