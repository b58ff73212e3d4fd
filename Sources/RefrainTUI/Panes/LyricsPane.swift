import RefrainCore

/// What the lyrics view and the Player pane's lyric lines are drawn from: the session's
/// lyrics and audible position, and how the user wants the sung line marked.
struct LyricsModel {
  /// The track's lyrics; `nil` when none were found (yet).
  var timeline: LyricTimeline?
  /// The audible position, in seconds.
  var position: Double
  /// What to say instead of lyrics ("looking for lyrics…", why none were found).
  var notice: String?
  var highlight: LyricHighlight
  /// Whether the terminal shows colours: without them the bold sung line gets a ▶ too.
  var colors: Bool
  /// Whether translation lines show under their originals.
  var translations = true
  /// Whether Korean and Japanese lines get a romanization line.
  var romanize = false
  /// Tap-to-sync in progress: the view shows the lines being timed instead.
  var sync: LyricsSync?

  /// The group being sung now, for synced lyrics: the original whose time has come (its
  /// translations share it).
  var current: Int? {
    guard let timeline, timeline.isSynced, let line = timeline.index(at: position) else {
      return nil
    }
    return timeline.groups.leader(of: line)
  }

  /// The lines a cursor moves between: the originals.
  var stops: [Int] { timeline?.groups.originals ?? [] }

  /// The rows drawn for line `index`: its text, then its romanization when asked for.
  func texts(of index: Int) -> [(text: String, romanized: Bool)] {
    guard let timeline, timeline.lines.indices.contains(index) else { return [] }
    let text = timeline.lines[index].text
    var rows = [(text.isEmpty ? "♪" : TerminalSanitizer.clean(text), false)]
    if romanize, let roman = Romanizer.romanize(text) {
      rows.append((TerminalSanitizer.clean(roman), true))
    }
    return rows
  }
}

/// The full-height lyrics view: follows the sung line, or scrolls freely until 5 s without
/// input; with seek mode on, Enter jumps to the selected line.
///
/// Its render is a function of its state and a ``LyricsModel``; its command handler changes
/// only the view and returns what the shell must do.
struct LyricsPane: Pane {
  var seekMode = true
  /// The line the user moved to while scrolled; `nil` while nothing was chosen.
  var selection: Int?
  var following = true
  /// When the user last pressed a key in the view, on the app's clock.
  var lastInput: Double = 0

  // MARK: - Commands

  /// Handles a command of the lyrics view; `page` is the visible height, for page moves.
  mutating func handle(_ command: Command, model: LyricsModel, page: Int) -> PaneResult {
    if let sync = model.sync { return handle(command, timing: sync, page: page) }
    let stops = model.stops
    let count = stops.count
    let current = model.current
    switch command {
    case .move(let move):
      guard count > 0 else { return .handled }
      // While following, a move starts from the highlighted line (before the first: -1).
      // The cursor moves between originals: a translation goes with its line.
      let from = (following ? nil : selection) ?? current
      let index = from.flatMap { line in stops.lastIndex { $0 <= line } } ?? -1
      selection = stops[Self.step(from: index, move, page: page, count: count)]
      following = false
      return .handled
    case .seekMode:
      seekMode.toggle()
      return .status("seek mode \(seekMode ? "on: Enter seeks to the line" : "off: Enter closes")")
    case .follow:
      following = true
      selection = current
      return .handled
    case .open:
      // While following, Enter acts on the highlighted line, not on a stale selection.
      guard seekMode, let target = following ? current : selection, count > 0 else {
        return .close
      }
      selection = target
      following = true
      return .session(.lyricLine(target))
    case .findInLyrics(nil):
      return .overlay(
        .input(title: "find in the lyrics: ", editor: LineEditor(), purpose: .findLyric))
    case .findInLyrics(let phrase?):
      guard let line = Self.find(phrase, in: model, after: (following ? nil : selection) ?? current)
      else { return .status("“\(phrase)” is not in these lyrics", error: true) }
      selection = line
      following = false
      return .status(seekMode ? "found: Enter plays from this line" : "found")
    case .back, .lyrics, .quit:
      return .close
    default:
      return .ignored
    }
  }

  /// Handles a key while the session is timing the lyrics: Space stamps, j/k choose a line
  /// from the last stamped, `[`/`]` move the chosen line's stamp by 50 ms, Enter plays from
  /// 1 s before it, and leaving with stamps asks first. Other commands keep their meaning.
  private mutating func handle(_ command: Command, timing sync: LyricsSync, page: Int)
    -> PaneResult
  {
    // The line `[`, `]` and Enter act on: the one chosen with j/k, else the last stamped.
    let target =
      !following && selection != nil ? selection : (sync.stamped > 0 ? sync.stamped - 1 : nil)
    switch command {
    case .togglePlay:
      following = true
      return .session(.lyricsSync(.stamp))
    case .move(let move):
      let count = sync.entries.count
      guard count > 0 else { return .handled }
      let index = (following ? nil : selection) ?? max(0, sync.next - 1)
      selection = Self.step(from: index, move, page: page, count: count)
      following = false
      return .handled
    case .nudge(let delta):
      guard let line = target else { return .handled }
      return .session(.syncNudge(line: line, ms: delta > 0 ? 50 : -50))
    case .open:
      guard let line = target else { return .handled }
      return .session(.syncCheck(line: line))
    case .back, .lyrics, .quit:
      guard sync.stamped > 0 else { return .closeAfter(.lyricsSync(.cancel)) }
      return .overlay(
        .confirm(question: "Leave timing without saving? (y/n)", action: .leaveSync))
    default:
      return .ignored
    }
  }

  /// Where a move from `index` lands among `count` places (half a page at a time), kept
  /// inside them.
  private static func step(from index: Int, _ move: Command.Move, page: Int, count: Int) -> Int {
    var index = index
    switch move {
    case .down, .right: index += 1
    case .up, .left: index -= 1
    case .pageDown: index += max(1, page / 2)
    case .pageUp: index -= max(1, page / 2)
    case .top: index = 0
    case .bottom: index = count - 1
    }
    return max(0, min(count - 1, index))
  }

  /// The next original line after `after` (wrapping round) whose text, translations
  /// included, contains `phrase`, ignoring case and accents.
  static func find(_ phrase: String, in model: LyricsModel, after: Int?) -> Int? {
    guard let timeline = model.timeline else { return nil }
    let fold = { (text: String) in
      text.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
    }
    let needle = fold(phrase.trimmingCharacters(in: .whitespaces))
    guard !needle.isEmpty else { return nil }
    let groups = timeline.groups
    let matching = Set(
      timeline.lines.indices.filter { fold(timeline.lines[$0].text).contains(needle) }
        .map { groups.leader(of: $0) })
    let stops = groups.originals.filter { matching.contains($0) }
    guard !stops.isEmpty else { return nil }
    return stops.first { $0 > (after ?? -1) } ?? stops[0]
  }

  // MARK: - Drawing

  /// Draws the view into `rect`, writing nothing but `grid` and `layout.lyricLines`.
  ///
  /// A header, then the lines wrapped to the width with the focused one centred.
  func render(
    _ model: LyricsModel, into grid: inout ScreenGrid, in rect: Rect, layout: inout FrameLayout
  ) {
    if let sync = model.sync { return renderSync(sync, into: &grid, in: rect, layout: &layout) }
    let header =
      "Lyrics — seek mode \(seekMode ? "ON" : "off") (s) · \(following ? "following" : "scrolled: f follows") · Esc closes"
    grid.put(header, x: 1, y: rect.y, maxWidth: rect.width - 2, style: .title)
    let body = Rect(x: rect.x + 2, y: rect.y + 1, width: rect.width - 4, height: rect.height - 1)
    guard let timeline = model.timeline, !timeline.lines.isEmpty else {
      grid.putCentered(
        model.notice ?? "no lyrics", x: body.x, y: body.y + body.height / 2, width: body.width,
        style: .dim)
      return
    }
    let position = model.position
    let current = model.current
    let groups = timeline.groups
    let focus = following ? (current ?? 0) : (selection ?? current ?? 0)
    // Wrap every line shown (originals, and translations unless hidden), each followed by
    // its romanization when asked for; remember where each line starts.
    var wrapped: [(line: Int, text: String, secondary: Bool)] = []
    var starts: [Int: Int] = [:]
    for index in groups.visible(translations: model.translations) {
      starts[index] = wrapped.count
      let translation = groups.isTranslation(index)
      for (text, romanized) in model.texts(of: index) {
        for piece in DisplayWidth.wrap(text, to: body.width) {
          wrapped.append((index, piece, translation || romanized))
        }
      }
    }
    let focusRow = starts[focus] ?? 0
    // The focused line stays centred: rows above the first line are left blank.
    let top = focusRow - body.height / 2
    // Marker-only leaves the text as it was, so a line change only scrolls and moves the ▶.
    // The bold line gets the ▶ too when there is no colour (NO_COLOR, the mono theme).
    let marks = model.highlight == .marker
    let drawsMarker = marks || !model.colors
    for row in 0..<body.height where wrapped.indices.contains(top + row) {
      let entry = wrapped[top + row]
      let y = body.y + row
      let group = groups.leader(of: entry.line)
      layout.lyricLines[y] = group
      let isCurrent = group == current
      if isCurrent, drawsMarker {
        grid.put(top + row == starts[group] ? "▶" : "▏", x: body.x - 2, y: y, style: .marker)
      }
      // A translation or romanization is drawn dimmer than its line; in the sung group it
      // is plain, so the group reads as one.
      if entry.secondary {
        grid.put(
          entry.text, x: body.x, y: y, maxWidth: body.width, style: isCurrent ? .normal : .dim)
        continue
      }
      if isCurrent,
        Self.drawWords(
          of: timeline, line: entry.line, text: entry.text, at: position, into: &grid, x: body.x,
          y: y, width: body.width, style: marks ? .normal : .current)
      {
        continue
      }
      let style: Style
      if isCurrent, !marks {
        style = .current
      } else if !following, entry.line == selection {
        style = .selected
      } else {
        style = .normal
      }
      grid.put(entry.text, x: body.x, y: y, maxWidth: body.width, style: style)
    }
    if !following, let selection, let start = starts[selection] {
      grid.put("›", x: body.x - 2, y: body.y + (start - top), style: .accent)
    }
  }

  /// Draws tap-to-sync: every line with its stamp (or a blank one), the next line to stamp
  /// highlighted and centred, the line chosen for `[`/`]` and Enter marked with ›.
  private func renderSync(
    _ sync: LyricsSync, into grid: inout ScreenGrid, in rect: Rect, layout: inout FrameLayout
  ) {
    let header =
      "Timing \(sync.stamped)/\(sync.entries.count) — Space stamps · Backspace undoes · [ ] ±50 ms · Enter checks · w saves · Esc leaves"
    grid.put(header, x: 1, y: rect.y, maxWidth: rect.width - 2, style: .title)
    let body = Rect(x: rect.x + 2, y: rect.y + 1, width: rect.width - 4, height: rect.height - 1)
    let next = sync.next
    let focus = following ? min(next, max(0, sync.entries.count - 1)) : (selection ?? next)
    let top = focus - body.height / 2
    for row in 0..<body.height where sync.entries.indices.contains(top + row) {
      let index = top + row
      let entry = sync.entries[index]
      let y = body.y + row
      layout.lyricLines[y] = index
      let stamp = entry.ms.map(LyricsSync.stamp) ?? "[--:--.--]"
      let text = entry.text.isEmpty ? "♪" : TerminalSanitizer.clean(entry.text)
      let style: Style = index == next ? .current : entry.ms == nil ? .dim : .normal
      if index == next, let word = sync.nextWord {
        // Word by word: the stamped words plain, the next one to stamp underlined.
        var column = body.x + grid.put(stamp + " ", x: body.x, y: y, style: style)
        for (position, text) in entry.words.enumerated() {
          let look: Style = position == word ? .currentWord : position < word ? .normal : .dim
          column += grid.put(
            TerminalSanitizer.clean(text), x: column, y: y,
            maxWidth: body.x + body.width - column, style: look)
          column += grid.put(" ", x: column, y: y, style: .normal)
        }
      } else {
        grid.put(stamp + " " + text, x: body.x, y: y, maxWidth: body.width, style: style)
      }
      if index == next { grid.put("▶", x: body.x - 2, y: y, style: .marker) }
      if !following, index == selection { grid.put("›", x: body.x - 2, y: y, style: .accent) }
    }
  }

  /// Draws a word-timed current line word by word, the word being sung as `.currentWord`.
  ///
  /// Returns false when the line has no words.
  private static func drawWords(
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
}
