import RefrainCore
import RefrainSession

/// What the shell draws around the focused pane: the tab bar, the now-playing and status
/// lines, and the overlay (help, the playlist picker; a question or an input line takes the
/// status line).
struct ChromeModel {
  /// The tabs shown: the Room tab only in a room.
  var tabs: [Command.Pane]
  /// The focused pane.
  var pane: Command.Pane
  var providerName: String
  var snapshot: PlaybackSnapshot
  /// The status message, unless it has expired.
  var status: StatusMessage?
  var overlay: Overlay?
  var keyMap: KeyMap
  /// Where the help overlay is asked for.
  var help: HelpScope
}

/// Where the help overlay is asked for: it lists only the keys that do something there.
struct HelpScope {
  /// Whether the lyrics view is open.
  var lyricsOpen: Bool
  /// The focused pane.
  var pane: Command.Pane
  /// Whether a detail list is open on it.
  var listOpen: Bool
  /// Whether the session is in a listening room.
  var inRoom: Bool

  /// The key context whose bindings are listed.
  var context: KeyContext { lyricsOpen ? .lyrics : .lists }

  /// Whether `binding` is listed: the Room tab's key only in a room; on the Player and Room
  /// panes (no list open), no list key: neither those of the lists' own context nor moving,
  /// opening and adding.
  func shows(_ binding: KeyMap.Binding) -> Bool {
    if case .show(let target) = binding.command, target.tab.onlyInRoom, !inRoom { return false }
    guard !lyricsOpen, !listOpen, pane == .player || pane == .room else { return true }
    switch binding.command {
    case .move, .open, .add, .addToPlaylist: return false
    default: return binding.context != .lists
    }
  }
}

/// Draws the ``ChromeModel``: a function of the model, writing only the grid and the tab
/// and picker entries of the layout.
struct Chrome {
  let model: ChromeModel

  /// Draws the tab bar on the top row, the now-playing line and the status line at the
  /// bottom, then the overlay.
  func render(into grid: inout ScreenGrid, layout: inout FrameLayout) {
    drawTabs(into: &grid, layout: &layout)
    drawNowPlaying(into: &grid, y: grid.height - 2)
    drawStatus(into: &grid, y: grid.height - 1)
    drawOverlay(into: &grid, layout: &layout)
  }

  private func drawTabs(into grid: inout ScreenGrid, layout: inout FrameLayout) {
    var x = 0
    for target in model.tabs {
      let name = "\(target.tab.key) \(target.tab.title)"
      let used = grid.put(
        name, x: x, y: 0, style: target == model.pane ? .tabActive : .tabInactive)
      if used > 0 { layout.tabs.append((x..<(x + used), target)) }
      x += used + 2
    }
    let label = "Refrain · \(model.providerName)"
    let labelWidth = DisplayWidth.of(label)
    if x + labelWidth < grid.width {
      grid.put(label, x: grid.width - labelWidth, y: 0, style: .dim)
    }
  }

  // MARK: - Bottom lines

  private func drawNowPlaying(into grid: inout ScreenGrid, y: Int) {
    let snapshot = model.snapshot
    guard let track = snapshot.shownTrack else {
      grid.put("■ stopped", x: 1, y: y, style: .dim)
      return
    }
    let icon: String
    switch snapshot.state {
    case .playing: icon = "▶"
    case .paused: icon = "⏸"
    case .loading: icon = "…"
    case .idle, .stopped: icon = "■"
    }
    let time =
      "\(ClockText.minutesSeconds(snapshot.position).isEmpty ? "0:00" : ClockText.minutesSeconds(snapshot.position)) / \(ClockText.minutesSeconds(snapshot.duration))"
    let timeWidth = DisplayWidth.of(time)
    let title = "\(icon) \(track.title)\(track.artist.map { " — \($0)" } ?? "")"
    grid.put(title, x: 1, y: y, maxWidth: grid.width - timeWidth - 4, style: .accent)
    // The default colour: a tick then sends the changed digits and no colour changes.
    grid.put(time, x: grid.width - timeWidth - 1, y: y)
  }

  private func drawStatus(into grid: inout ScreenGrid, y: Int) {
    grid.fill(Rect(x: 0, y: y, width: grid.width, height: 1), style: .status)
    if case .input(let title, let editor, _) = model.overlay {
      grid.put("\(title) \(editor.text)▏", x: 0, y: y, maxWidth: grid.width, style: .status)
    } else if case .confirm(let question, _) = model.overlay {
      grid.put(question, x: 0, y: y, maxWidth: grid.width, style: .status)
    } else if let status = model.status {
      grid.put(
        status.text, x: 1, y: y, maxWidth: grid.width - 2, style: status.isError ? .error : .status)
    } else {
      grid.put(
        "? help  / search  l lyrics  space play/pause  q back", x: 1, y: y,
        maxWidth: grid.width - 2, style: .status)
    }
  }

  /// The keys of this context: one line per command (`j, down`), keys a context binding
  /// shadows left out, in two columns when one does not fit; what still does not fit is
  /// counted on the last line.
  private func drawHelp(into grid: inout ScreenGrid) {
    var entries: [(command: Command, keys: String, help: String)] = []
    let context = model.help.context
    let own = Set(model.keyMap.bindings.filter { $0.context == context }.map(\.key))
    for binding in model.keyMap.bindings(in: context) where model.help.shows(binding) {
      if binding.context == .global, context != .global, own.contains(binding.key) {
        continue
      }
      if let index = entries.firstIndex(where: {
        $0.command == binding.command && $0.help == binding.help
      }) {
        entries[index].keys += ", \(binding.key)"
      } else {
        entries.append((binding.command, binding.key.description, binding.help))
      }
    }
    let maxRows = max(1, grid.height - 6)
    let neededColumns = (entries.count + maxRows - 1) / maxRows
    let columns = max(1, min((grid.width - 6) / 44, neededColumns))
    let rows = min(maxRows, (entries.count + columns - 1) / columns)
    let width = min(grid.width - 4, columns == 1 ? 64 : columns * 48 + 2)
    let columnWidth = (width - 2) / columns
    let box = Rect(x: (grid.width - width) / 2, y: 2, width: width, height: rows + 2)
    drawOverlayBox(box, title: "Keys (any key closes)", into: &grid)
    let slots = rows * columns
    let hidden = entries.count > slots ? entries.count - (slots - 1) : 0
    let cellWidth = columnWidth - 2
    for (index, entry) in entries.prefix(hidden > 0 ? slots - 1 : slots).enumerated() {
      let x = box.x + 2 + (index / rows) * columnWidth
      let y = box.y + 1 + index % rows
      grid.put(entry.keys, x: x, y: y, maxWidth: 9, style: .accent)
      grid.put(entry.help, x: x + 10, y: y, maxWidth: cellWidth - 10)
    }
    if hidden > 0 {
      let x = box.x + 2 + ((slots - 1) / rows) * columnWidth
      grid.put(
        "… \(hidden) more: refrain keys", x: x, y: box.y + rows, maxWidth: cellWidth, style: .dim)
    }
  }

  /// Clears `box` and a one-cell margin around it (within the pane area), then draws its
  /// border: nothing of the pane behind shows inside or touches the border.
  private func drawOverlayBox(_ box: Rect, title: String, into grid: inout ScreenGrid) {
    let top = max(1, box.y - 1)
    let bottom = min(grid.height - 2, box.y + box.height + 1)
    grid.fill(Rect(x: box.x - 1, y: top, width: box.width + 2, height: bottom - top))
    grid.fill(box)
    grid.box(box, title: title)
  }

  private func drawOverlay(into grid: inout ScreenGrid, layout: inout FrameLayout) {
    switch model.overlay {
    case .help:
      drawHelp(into: &grid)
    case .picker(let picker):
      let rows = picker.rows
      var cursor = picker.cursor
      let width = min(grid.width - 4, 50)
      let height = min(grid.height - 6, rows.count + 2)
      let box = Rect(x: (grid.width - width) / 2, y: 3, width: width, height: height)
      drawOverlayBox(box, title: "Add \(picker.tracks.count) to playlist", into: &grid)
      // Long lists scroll with the selection.
      cursor.clamp(rows: rows, height: height - 2)
      layout.picker = cursor
      for (index, row) in rows.enumerated().dropFirst(cursor.top).prefix(height - 2) {
        let style: Style = index == cursor.selection ? .selected : row.isHeader ? .title : .normal
        let y = box.y + 1 + index - cursor.top
        grid.put(
          row.text, x: box.x + (row.isHeader ? 1 : 2), y: y, maxWidth: width - 4, style: style)
      }
    default:
      break
    }
  }
}

extension PlayerEvent {
  /// What the status line says of the event, and for how many seconds; `nil` for nothing.
  /// `streamNotice` is the session's line on a lost stream ("stream lost: reconnecting…").
  func statusLine(streamNotice: String?) -> (text: String, isError: Bool, seconds: Double)? {
    switch self {
    case .failed(let track, let message): return ("skipped \(track.title): \(message)", true, 6)
    case .warning(let message): return (message, true, 6)
    case .stream(_, .reconnecting): return (streamNotice ?? "stream lost", true, 11)
    case .stream(_, .reconnected): return ("stream is back", false, 3)
    case .stream(_, .stalled(let reason)): return ("stream stalled: \(reason)", true, 11)
    case .stream(_, .flowing): return ("stream flows again", false, 3)
    case .stream(_, .notice(let text)): return (text, false, 6)
    case .started, .trackEnded, .stream: return nil
    }
  }
}
