import Foundation
import RefrainArt
import RefrainCore

/// What the Player pane is drawn from: the session's playback snapshot and lyrics, and the
/// cover loaded for the track.
struct PlayerModel {
  var snapshot: PlaybackSnapshot
  var lyrics: LyricsModel
  /// The user's lyrics offset for this track, in milliseconds.
  var lyricOffsetMs: Int
  /// Whether the terminal shows pictures and covers can be looked for: without, the cover
  /// is the placeholder box.
  var showsCovers = false
  /// The cover asked for last, and what came of it.
  var cover = CoverSlot()
  /// The listening room and how many are in it ("Room friday · 3 members"), when in one.
  var room: String?
  /// Whether the catalog's server has the track starred (its title is marked).
  var starred = false
}

/// The Player pane: the track, the cover box, the modes, the progress bar and the two
/// lyric lines; with less room, rows give way in a fixed order and the lyrics stay.
///
/// Its render is a function of a ``PlayerModel``: it writes nothing but the grid and the
/// layout (which says what cover it would show, for the shell to load).
struct PlayerPane: Pane {
  /// The cover in `rect`: the picture when it has been loaded for this track and size,
  /// the placeholder box otherwise (loading, none found, or a terminal without pictures).
  private func drawCover(
    _ model: PlayerModel, track: Track, in rect: Rect, into grid: inout ScreenGrid,
    layout: inout FrameLayout
  ) {
    let request = CoverSlot.Request(
      track: track, box: CellSize(columns: rect.width, rows: rect.height))
    if model.showsCovers {
      layout.cover = request
      if model.cover.request == request, case .ready(let scaled) = model.cover.state {
        let size = (columns: scaled.cells.columns, rows: scaled.cells.rows)
        let place = Rect(
          x: rect.x + (rect.width - size.columns) / 2, y: rect.y + (rect.height - size.rows) / 2,
          width: size.columns, height: size.rows)
        grid.pictures.append(
          Picture(
            rect: place, key: "\(track.id) \(rect.width)x\(rect.height)", cells: scaled.cells,
            png: scaled.png))
        return
      }
    }
    grid.box(rect, style: .border)
    grid.putCentered(
      "♪", x: rect.x, y: rect.y + rect.height / 2 - 1, width: rect.width, style: .accent)
    grid.putCentered(
      "cover", x: rect.x, y: rect.y + rect.height / 2, width: rect.width, style: .dim)
  }

  /// A gain as the Player pane shows it: one decimal, a sign, a true minus (`−6.2 dB`).
  static func decibels(_ gain: Double) -> String {
    let text = String(format: "%.1f", abs(gain))
    return (gain < 0 && text != "0.0" ? "−" : gain > 0 && text != "0.0" ? "+" : "") + text + " dB"
  }

  func render(
    _ model: PlayerModel, into grid: inout ScreenGrid, in rect: Rect, layout: inout FrameLayout
  ) {
    let snapshot = model.snapshot
    guard let track = snapshot.shownTrack else {
      grid.putCentered(
        "Nothing playing. Pick something on Home (1) or Search (2).", x: rect.x,
        y: rect.y + rect.height / 2, width: rect.width, style: .dim)
      return
    }
    let title = track.title + (model.starred ? " " + ListPane.starredMark : "")
    let modes =
      "vol \(snapshot.volume)%  shuffle \(snapshot.isShuffled ? "on" : "off")  repeat \(snapshot.repeatMode.rawValue)"
      + (model.lyricOffsetMs != 0
        ? "  lyrics \(model.lyricOffsetMs > 0 ? "+" : "")\(model.lyricOffsetMs) ms" : "")
      + (snapshot.replayGain.map { "  RG " + Self.decibels($0) } ?? "")
    let queueLine =
      model.room.map { "\($0)  \(snapshot.state.rawValue)" }
      ?? "track \((snapshot.index ?? 0) + 1) of \(snapshot.queueCount)  \(snapshot.state.rawValue)"
    guard rect.height >= 16 && rect.width >= 60 else {
      // No room for the cover: the rows that fit, the lyrics always among them.
      var y = rect.y
      for row in PlayerRow.fitting(rect.height) {
        let textWidth = rect.width - 3
        switch row {
        case .gap: break
        case .title: grid.put(title, x: 2, y: y, maxWidth: textWidth, style: .title)
        case .artist: grid.put(track.artist ?? "Unknown artist", x: 2, y: y, maxWidth: textWidth)
        case .album: grid.put(track.album ?? "", x: 2, y: y, maxWidth: textWidth, style: .dim)
        case .modes: grid.put(modes, x: 2, y: y, maxWidth: textWidth, style: .dim)
        case .queue: grid.put(queueLine, x: 2, y: y, maxWidth: textWidth, style: .dim)
        case .progress:
          drawProgress(into: &grid, x: 2, y: y, width: rect.width - 4, snapshot: snapshot)
        case .lyrics: drawTwoLyricLines(model.lyrics, into: &grid, y: y, width: rect.width)
        }
        y += row == .lyrics ? 2 : 1
      }
      return
    }
    var y = rect.y + 1
    // The cover is square in pixels (a cell is about twice as tall as wide), at most two
    // fifths of the width, above the progress bar and the two lyric lines.
    let coverRows = min(rect.height - 7, rect.width * 2 / 5 / 2)
    let cover = Rect(x: 2, y: y, width: coverRows * 2, height: coverRows)
    drawCover(model, track: track, in: cover, into: &grid, layout: &layout)
    let textX = cover.x + cover.width + 3
    let textWidth = rect.width - textX - 1
    grid.put(title, x: textX, y: y, maxWidth: textWidth, style: .title)
    grid.put(track.artist ?? "Unknown artist", x: textX, y: y + 1, maxWidth: textWidth)
    grid.put(track.album ?? "", x: textX, y: y + 2, maxWidth: textWidth, style: .dim)
    grid.put(modes, x: textX, y: y + 4, maxWidth: textWidth, style: .dim)
    grid.put(queueLine, x: textX, y: y + 5, maxWidth: textWidth, style: .dim)
    y += cover.height + 1
    drawProgress(into: &grid, x: 2, y: y, width: rect.width - 4, snapshot: snapshot)
    drawTwoLyricLines(
      model.lyrics, into: &grid, y: min(y + 2, rect.y + rect.height - 2), width: rect.width)
  }

  /// The Player pane's two-line lyrics at `y`, centred: the line being sung, then its
  /// translation (or its romanization) when it has one shown, else the next line.
  private func drawTwoLyricLines(
    _ lyrics: LyricsModel, into grid: inout ScreenGrid, y: Int, width: Int
  ) {
    if let timeline = lyrics.timeline, timeline.isSynced {
      let lines = timeline.lines
      let groups = timeline.groups
      let current = lyrics.current
      let currentText = current.map { lines[$0].text } ?? "♪"
      grid.putCentered(
        TerminalSanitizer.clean(currentText.isEmpty ? "♪" : currentText), x: 1, y: y,
        width: width - 2, style: .current)
      let after = (current ?? -1) + 1
      let second: String?
      if let current, lyrics.translations, groups.isTranslation(after) {
        second = groups.leader(of: after) == current ? lines[after].text : nil
      } else if let current, lyrics.romanize, let roman = Romanizer.romanize(lines[current].text) {
        second = roman
      } else {
        second = groups.originals.first { $0 >= after }.map { lines[$0].text }
      }
      if let second {
        grid.putCentered(
          TerminalSanitizer.clean(second), x: 1, y: y + 1, width: width - 2, style: .dim)
      }
    } else {
      grid.putCentered(
        lyrics.notice ?? (lyrics.timeline == nil ? "no lyrics" : "plain lyrics: press l"), x: 1,
        y: y, width: width - 2, style: .dim)
    }
  }

  private func drawProgress(
    into grid: inout ScreenGrid, x: Int, y: Int, width: Int, snapshot: PlaybackSnapshot
  ) {
    let elapsed = ClockText.minutesSeconds(snapshot.position)
    let total = ClockText.minutesSeconds(snapshot.duration)
    let barWidth = width - DisplayWidth.of(elapsed) - DisplayWidth.of(total) - 4
    guard barWidth > 2 else { return }
    let fraction = snapshot.duration.map { $0 > 0 ? min(1, snapshot.position / $0) : 0 } ?? 0
    let filled = Int(Double(barWidth) * fraction)
    let bar =
      String(repeating: "=", count: filled) + String(repeating: "-", count: barWidth - filled)
    let used = grid.put(elapsed.isEmpty ? "0:00" : elapsed, x: x, y: y)
    grid.put("[\(bar)]", x: x + used + 1, y: y, style: .progress)
    grid.put(total, x: x + used + barWidth + 4, y: y)
  }
}

/// A row of the Player pane without the cover box, top to bottom.
enum PlayerRow: Equatable {
  /// A blank row; the number only tells them apart.
  case gap(Int)
  case title, artist, album, modes, queue, progress
  /// The current and the next lyric line (two rows).
  case lyrics

  /// Every row, when there is room: 12 screen rows.
  static let all: [PlayerRow] = [
    .gap(0), .title, .artist, .album, .gap(1), .modes, .queue, .gap(2), .progress, .gap(3), .lyrics,
  ]

  /// What goes first when rows are short: the title, progress and lyrics always stay.
  static let dropOrder: [PlayerRow] = [
    .gap(3), .album, .gap(1), .queue, .gap(0), .modes, .gap(2), .artist,
  ]

  /// The rows that fit in `height`, in screen order.
  static func fitting(_ height: Int) -> [PlayerRow] {
    var rows = all
    for row in dropOrder where rows.reduce(0, { $0 + ($1 == .lyrics ? 2 : 1) }) > height {
      rows.removeAll { $0 == row }
    }
    return rows
  }
}
