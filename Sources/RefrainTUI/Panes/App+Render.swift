import Foundation
import RefrainCore

/// Drawing: the frame (tabs, now-playing bar, status line), the lists, the lyrics view and
/// the overlays (the Player pane: App+Player.swift).
extension App {
  /// The smallest terminal Refrain lays out; below it a notice is shown.
  static let minimumSize = (width: 40, height: 12)

  /// Renders the whole screen for a terminal of `width` × `height`.
  public func render(width: Int, height: Int) -> ScreenGrid {
    var grid = ScreenGrid(width: width, height: height)
    lastHeight = height
    clickMap = ClickMap()
    if let expires = status?.expires, now() >= expires { status = nil }
    guard width >= Self.minimumSize.width, height >= Self.minimumSize.height else {
      grid.put("terminal too small", x: 0, y: 0, maxWidth: width, style: .error)
      grid.put("(\(width)×\(height), needs 40×12)", x: 0, y: 1, maxWidth: width, style: .dim)
      return grid
    }
    drawTabs(into: &grid)
    let content = Rect(x: 0, y: 1, width: width, height: height - 3)
    if lyricsView != nil {
      drawLyricsView(into: &grid, in: content)
    } else if pane == .player && details[pane]?.isEmpty != false {
      drawPlayer(into: &grid, in: content)
    } else {
      drawList(into: &grid, in: content)
    }
    drawNowPlaying(into: &grid, y: height - 2)
    drawStatus(into: &grid, y: height - 1)
    drawOverlay(into: &grid)
    return grid
  }

  private func drawTabs(into grid: inout ScreenGrid) {
    let names: [(Command.Pane, String)] = [
      (.home, "1 Home"), (.search, "2 Search"), (.library, "3 Library"), (.player, "4 Player"),
      (.queue, "5 Queue"),
    ]
    var x = 0
    for (target, name) in names {
      let used = grid.put(name, x: x, y: 0, style: target == pane ? .tabActive : .tabInactive)
      if used > 0 { clickMap.tabs.append((x..<(x + used), target)) }
      x += used + 2
    }
    let label = "Refrain · \(provider.name)"
    let labelWidth = DisplayWidth.of(label)
    if x + labelWidth < grid.width {
      grid.put(label, x: grid.width - labelWidth, y: 0, style: .dim)
    }
  }

  // MARK: - Lists

  private func drawList(into grid: inout ScreenGrid, in area: Rect) {
    var rect = area
    if pane == .search && details[pane]?.isEmpty != false {
      let prompt = search.editing ? "/ \(search.editor.text)▏" : "/ \(search.query)"
      grid.put(
        prompt, x: 1, y: rect.y, maxWidth: rect.width - 2, style: search.editing ? .accent : .dim)
      rect = Rect(x: rect.x, y: rect.y + 1, width: rect.width, height: rect.height - 1)
    }
    if let detail = details[pane]?.last {
      grid.put("‹ \(detail.title)", x: 1, y: rect.y, maxWidth: rect.width - 2, style: .accent)
      rect = Rect(x: rect.x, y: rect.y + 1, width: rect.width, height: rect.height - 1)
    }
    let rows = currentRows()
    var position = cursor
    position.clamp(rows: rows, height: rect.height)
    cursor = position
    clickMap.list = (rect, position.top)
    for (offset, index) in (position.top..<min(rows.count, position.top + rect.height)).enumerated()
    {
      let row = rows[index]
      let y = rect.y + offset
      let selected = index == position.selection && !row.isHeader
      let detailWidth = DisplayWidth.of(row.detail)
      let textWidth = rect.width - 2 - (detailWidth > 0 ? detailWidth + 1 : 0)
      if selected {
        grid.fill(Rect(x: rect.x, y: y, width: rect.width, height: 1), style: .selected)
      }
      let indent = row.isHeader ? 1 : 2
      grid.put(
        row.text, x: rect.x + indent, y: y, maxWidth: textWidth - indent + 1,
        style: selected ? .selected : row.style)
      if detailWidth > 0 {
        grid.put(
          row.detail, x: rect.x + rect.width - 1 - detailWidth, y: y,
          style: selected ? .selected : .dim)
      }
    }
  }

  // MARK: - Lyrics view

  private func drawLyricsView(into grid: inout ScreenGrid, in rect: Rect) {
    let view = lyricsView ?? LyricsViewState()
    let header =
      "Lyrics — seek mode \(view.seekMode ? "ON" : "off") (s) · \(view.following ? "following" : "scrolled: f follows") · Esc closes"
    grid.put(header, x: 1, y: rect.y, maxWidth: rect.width - 2, style: .title)
    let body = Rect(x: rect.x + 2, y: rect.y + 1, width: rect.width - 4, height: rect.height - 1)
    guard let follower = presenter.lyrics, !follower.timeline.lines.isEmpty else {
      grid.putCentered(
        lyricsNotice ?? "no lyrics", x: body.x, y: body.y + body.height / 2, width: body.width,
        style: .dim)
      return
    }
    let timeline = follower.timeline
    let position = presenter.snapshot.position
    let current = timeline.isSynced ? timeline.index(at: position) : nil
    let focus = view.following ? (current ?? 0) : (view.selection ?? current ?? 0)
    // Wrap every line; remember where each starts.
    var wrapped: [(line: Int, text: String)] = []
    var starts: [Int] = []
    for (index, line) in timeline.lines.enumerated() {
      starts.append(wrapped.count)
      let text = line.text.isEmpty ? "♪" : TerminalSanitizer.clean(line.text)
      for piece in DisplayWidth.wrap(text, to: body.width) { wrapped.append((index, piece)) }
    }
    let focusRow = starts.indices.contains(focus) ? starts[focus] : 0
    // The focused line stays centred: rows above the first line are left blank.
    let top = focusRow - body.height / 2
    // Marker-only leaves the text as it was, so a line change only scrolls and moves the ▶.
    // The bold line gets the ▶ too when there is no colour (NO_COLOR, the mono theme).
    let marks = lyricHighlight == .marker
    let drawsMarker = marks || !colors
    for row in 0..<body.height where wrapped.indices.contains(top + row) {
      let entry = wrapped[top + row]
      let y = body.y + row
      clickMap.lyricLines[y] = entry.line
      let isCurrent = entry.line == current
      if isCurrent, drawsMarker {
        grid.put(top + row == starts[entry.line] ? "▶" : "▏", x: body.x - 2, y: y, style: .marker)
      }
      if isCurrent,
        drawWords(
          of: timeline, line: entry.line, text: entry.text, at: position, into: &grid, x: body.x,
          y: y, width: body.width, style: marks ? .normal : .current)
      {
        continue
      }
      let style: Style
      if isCurrent, !marks {
        style = .current
      } else if !view.following, entry.line == view.selection {
        style = .selected
      } else {
        style = .normal
      }
      grid.put(entry.text, x: body.x, y: y, maxWidth: body.width, style: style)
    }
    if !view.following, let selection = view.selection, starts.indices.contains(selection) {
      grid.put("›", x: body.x - 2, y: body.y + (starts[selection] - top), style: .accent)
    }
  }

  /// Draws a word-timed current line word by word, the word being sung as `.currentWord`.
  ///
  /// Returns false when the line has no words.
  private func drawWords(
    of timeline: LyricTimeline, line: Int, text: String, at position: Double,
    into grid: inout ScreenGrid, x: Int, y: Int, width: Int, style lineStyle: Style
  ) -> Bool {
    guard let words = timeline.lines[line].words, !words.isEmpty,
      DisplayWidth.of(text) <= width, text == timeline.lines[line].text
    else { return false }
    let currentWord = timeline.wordIndex(line: line, at: position)
    var column = x
    for (index, word) in words.enumerated() {
      let style: Style = index == currentWord ? .currentWord : lineStyle
      column += grid.put(word.text, x: column, y: y, maxWidth: x + width - column, style: style)
      if index < words.count - 1 { column += grid.put(" ", x: column, y: y, style: lineStyle) }
    }
    return true
  }

  // MARK: - Bottom lines

  private func drawNowPlaying(into grid: inout ScreenGrid, y: Int) {
    let snapshot = presenter.snapshot
    guard let track = snapshot.track else {
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
      "\(Self.clock(snapshot.position).isEmpty ? "0:00" : Self.clock(snapshot.position)) / \(Self.clock(snapshot.duration))"
    let timeWidth = DisplayWidth.of(time)
    let title = "\(icon) \(track.title)\(track.artist.map { " — \($0)" } ?? "")"
    grid.put(title, x: 1, y: y, maxWidth: grid.width - timeWidth - 4, style: .accent)
    // The default colour: a tick then sends the changed digits and no colour changes.
    grid.put(time, x: grid.width - timeWidth - 1, y: y)
  }

  private func drawStatus(into grid: inout ScreenGrid, y: Int) {
    grid.fill(Rect(x: 0, y: y, width: grid.width, height: 1), style: .status)
    if case .input(let title, let editor, _) = overlay {
      grid.put("\(title) \(editor.text)▏", x: 0, y: y, maxWidth: grid.width, style: .status)
    } else if case .confirm(let question, _) = overlay {
      grid.put(question, x: 0, y: y, maxWidth: grid.width, style: .status)
    } else if let status {
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
    let own = Set(keyMap.bindings.filter { $0.context == helpContext }.map(\.key))
    for binding in keyMap.bindings(in: helpContext) {
      if binding.context == .global, helpContext != .global, own.contains(binding.key) { continue }
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

  private func drawOverlay(into grid: inout ScreenGrid) {
    switch overlay {
    case .help:
      drawHelp(into: &grid)
    case .picker(let tracks, let playlists, var cursor):
      let names = playlists.map(\.name) + ["+ New playlist…"]
      let width = min(grid.width - 4, 50)
      let height = min(grid.height - 6, names.count + 2)
      let box = Rect(x: (grid.width - width) / 2, y: 3, width: width, height: height)
      drawOverlayBox(box, title: "Add \(tracks.count) to playlist", into: &grid)
      // Long lists scroll with the selection.
      cursor.clamp(rows: names.map { ListRow(text: $0) }, height: height - 2)
      overlay = .picker(tracks: tracks, playlists: playlists, cursor: cursor)
      for (row, name) in names.enumerated().dropFirst(cursor.top).prefix(height - 2) {
        let style: Style = row == cursor.selection ? .selected : .normal
        let y = box.y + 1 + row - cursor.top
        grid.put(name, x: box.x + 2, y: y, maxWidth: width - 4, style: style)
      }
    default:
      break
    }
  }
}
