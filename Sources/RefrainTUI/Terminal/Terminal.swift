import CNcursesw
import CTUIShims
import Foundation
import RefrainArt
import RefrainCore

/// The only place Refrain talks to ncurses: set-up, key input and copying grids out.
///
/// Call it from one thread only. Frames are diffed row by row against the last frame,
/// and ncurses sends only the changed cells (`wnoutrefresh` + `doupdate`).
public final class Terminal {
  private var last: ScreenGrid?
  private var pairs: [Style: (attrs: UInt32, pair: Int32)] = [:]
  private var started = false
  private var mouse = false
  /// How pictures are drawn; set after ``start(colors:mouse:)``.
  public var pictureOutput: PictureOutput = .none
  /// The pictures on screen now.
  private var shown: [Picture] = []
  /// The kitty image number of each picture on screen, by key.
  private var kittyImages: [String: UInt32] = [:]
  private var nextKittyImage: UInt32 = 1
  /// The start-up probe's answers still owed, taken out of the keys until `lateAnswersUntil`.
  private var lateAnswers: LateAnswerFilter?
  private var lateAnswersUntil: Double = 0

  /// Creates a terminal; nothing happens until ``start(colors:mouse:)``.
  public init() {}

  /// Takes over the terminal: UTF-8 locale, raw keys, no echo, hidden cursor, colours.
  ///
  /// With `mouse`, the terminal reports the wheel and left clicks (as ``Key/wheelUp``,
  /// ``Key/wheelDown`` and ``Key/click(x:y:)``); without it the terminal keeps its own
  /// text selection.
  public func start(colors: Bool, mouse: Bool = false) {
    setlocale(LC_ALL, "")
    _ = refrain_set_utf8_ctype()
    // The size comes from the terminal, never from LINES/COLUMNS in the environment: a
    // stale pair (tmux and some shells export them) would pin the size and defeat resizes.
    unsetenv("LINES")
    unsetenv("COLUMNS")
    _ = initscr()
    _ = cbreak()
    _ = noecho()
    _ = nonl()
    let screen = refrain_stdscr().assumingMemoryBound(to: WINDOW.self)
    _ = keypad(screen, true)
    _ = set_escdelay(25)
    _ = curs_set(0)
    // The cursor is hidden, so ncurses need not move it back after each update: a
    // progress tick is then the changed digit and little else.
    _ = leaveok(screen, true)
    wtimeout(screen, 0)
    pairs = Theme.attributes(colors: colors && refrain_has_colors() != 0)
    if mouse { self.mouse = refrain_set_mouse(1) != 0 }
    started = true
  }

  /// The colours terminfo says the terminal has; valid after ``start(colors:mouse:)``.
  public var reportedColors: Int { Int(refrain_colors()) }

  /// Gives the terminal back as it was, with no picture left on it.
  public func stop() {
    guard started else { return }
    removePictures(shown)
    shown = []
    if mouse { _ = refrain_set_mouse(0) }
    _ = curs_set(1)
    _ = endwin()
    started = false
  }

  /// The size in columns and rows.
  public var size: (width: Int, height: Int) {
    (Int(refrain_cols()), Int(refrain_rows()))
  }

  /// Reads every key that is waiting, without blocking.
  public func readKeys() -> [Key] {
    var keys: [Key] = []
    var value: UInt32 = 0
    var isFunction: Int32 = 0
    while refrain_get_key(&value, &isFunction) != 0 {
      if let key = Self.key(value: value, isFunction: isFunction != 0) { keys.append(key) }
    }
    guard var filter = lateAnswers else { return keys }
    if Self.monotonicSeconds() > lateAnswersUntil {
      lateAnswers = nil
      return filter.flush() + keys
    }
    keys = filter.filter(keys)
    lateAnswers = filter.isActive ? filter : nil
    return keys
  }

  /// Drops the start-up probe's answers from the keys for a few seconds: the probe stopped
  /// waiting before the terminal answered (`kittyReply`: kitty's reply may come too).
  public func expectLateAnswers(kittyReply: Bool, seconds: Double = 5) {
    lateAnswers = LateAnswerFilter(owesDeviceAttributes: true, owesKittyReply: kittyReply)
    lateAnswersUntil = Self.monotonicSeconds() + seconds
  }

  private static func monotonicSeconds() -> Double {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
  }

  /// Copies the changed rows of `grid` to the screen and updates the terminal, then sends
  /// the pictures that are new, moved, or were written over since the last frame.
  ///
  /// A picture that stays where it was, over cells that did not change, costs nothing.
  public func draw(_ grid: ScreenGrid) {
    let resized = last.map { $0.width != grid.width || $0.height != grid.height } ?? true
    if resized { _ = clearok(refrain_stdscr().assumingMemoryBound(to: WINDOW.self), true) }
    let pictures = pictureOutput == .none ? [] : grid.pictures
    let send = pictures.filter { picture in
      resized || !shown.contains(picture)
        || last.map { grid.cellsDiffer(in: picture.rect, from: $0) } ?? true
    }
    removePictures(shown.filter { !pictures.contains($0) })
    for y in 0..<grid.height where resized || last.map({ grid.rowDiffers(y, from: $0) }) ?? true {
      drawRow(y, of: grid)
    }
    last = grid
    _ = wnoutrefresh(refrain_stdscr().assumingMemoryBound(to: WINDOW.self))
    _ = doupdate()
    for picture in send { show(picture) }
    shown = pictures
  }

  // MARK: - Pictures

  /// Sends `picture` into its cells, the cursor and colours saved and restored around it,
  /// so curses' idea of the screen stays right.
  private func show(_ picture: Picture) {
    var out = "\u{1B}7"
    let rect = picture.rect
    switch pictureOutput {
    case .none:
      return
    case .halfBlocks(let colors):
      for (row, line) in picture.cells.encodedRows(colors).enumerated() where row < rect.height {
        out += "\u{1B}[\(rect.y + row + 1);\(rect.x + 1)H" + line
      }
    case .kitty(let tmux):
      guard let png = picture.png else { return }
      if let old = kittyImages[picture.key] { out += wrap(KittyGraphics.delete(id: old), tmux) }
      let id = nextKittyImage
      nextKittyImage = nextKittyImage == UInt32.max ? 1 : nextKittyImage + 1
      kittyImages[picture.key] = id
      out += wrap(KittyGraphics.transmit(id: id, .png(png)), tmux)
      out += "\u{1B}[\(rect.y + 1);\(rect.x + 1)H"
      out += wrap(KittyGraphics.place(id: id, columns: rect.width, rows: rect.height), tmux)
    case .iTerm(let tmux):
      guard let png = picture.png else { return }
      out += "\u{1B}[\(rect.y + 1);\(rect.x + 1)H"
      out += wrap(ITermInlineImage.sequence(png: png, columns: rect.width, rows: rect.height), tmux)
    }
    out += "\u{1B}8"
    Self.send(out)
  }

  /// Takes pictures off the screen: kitty's are deleted (placement and data); cells drawn
  /// outside curses are repainted by curses at the next update.
  private func removePictures(_ pictures: [Picture]) {
    guard !pictures.isEmpty else { return }
    var out = ""
    for picture in pictures {
      switch pictureOutput {
      case .kitty(let tmux):
        if let id = kittyImages.removeValue(forKey: picture.key) {
          out += wrap(KittyGraphics.delete(id: id), tmux)
        }
      case .halfBlocks, .iTerm:
        _ = refrain_redraw_lines(Int32(picture.rect.y), Int32(picture.rect.height))
      case .none:
        break
      }
    }
    if !out.isEmpty { Self.send(out) }
  }

  private func wrap(_ sequence: String, _ tmux: Bool) -> String {
    tmux ? TmuxPassthrough.wrap(sequence) : sequence
  }

  /// Writes straight to the terminal, after whatever curses has buffered.
  private static func send(_ text: String) {
    fflush(nil)
    let bytes = Array(text.utf8)
    var offset = 0
    while offset < bytes.count {
      let written = bytes[offset...].withUnsafeBytes {
        write(STDOUT_FILENO, $0.baseAddress, $0.count)
      }
      if written < 0, errno == EINTR || errno == EAGAIN { continue }
      guard written > 0 else { return }
      offset += written
    }
  }

  /// Forgets the last frame, so the next draw repaints everything (after a resize).
  public func invalidate() {
    last = nil
  }

  private func drawRow(_ y: Int, of grid: ScreenGrid) {
    var x = 0
    while x < grid.width {
      let style = grid[x, y].style
      var run: [wchar_t] = []
      let runStart = x
      while x < grid.width, grid[x, y].style == style {
        for scalar in grid[x, y].text.unicodeScalars { run.append(wchar_t(scalar.value)) }
        x += 1
      }
      let look = pairs[style] ?? (0, 0)
      run.append(0)
      // The last cell of the screen would scroll it; ncurses refuses that write harmlessly.
      _ = refrain_put(Int32(y), Int32(runStart), run, Int32(run.count - 1), look.attrs, look.pair)
    }
  }

  /// The wheel or click behind a `KEY_MOUSE`; other mouse events are dropped.
  private static func mouseKey() -> Key? {
    var x: Int32 = 0
    var y: Int32 = 0
    switch refrain_read_mouse(&x, &y) {
    case 1: return .wheelUp
    case 2: return .wheelDown
    case 3: return .click(x: Int(x), y: Int(y))
    default: return nil
    }
  }

  private static func key(value: UInt32, isFunction: Bool) -> Key? {
    if isFunction {
      let code = Int32(value)
      switch code {
      case refrain_key_code("up"): return .up
      case refrain_key_code("down"): return .down
      case refrain_key_code("left"): return .left
      case refrain_key_code("right"): return .right
      case refrain_key_code("pageup"): return .pageUp
      case refrain_key_code("pagedown"): return .pageDown
      case refrain_key_code("home"): return .home
      case refrain_key_code("end"): return .end
      case refrain_key_code("backspace"): return .backspace
      case refrain_key_code("enter"): return .enter
      case refrain_key_code("delete"): return .delete
      case refrain_key_code("btab"): return .backTab
      case refrain_key_code("resize"): return .resize
      case refrain_key_code("f1"): return .function(1)
      case refrain_key_code("mouse"): return mouseKey()
      default: return nil
      }
    }
    switch value {
    case 9: return .tab
    case 10, 13: return .enter
    case 27: return .escape
    case 8, 127: return .backspace
    case 1...26: return .ctrl(Character(Unicode.Scalar(value + 96) ?? "?"))
    default:
      guard let scalar = Unicode.Scalar(value) else { return nil }
      return .character(Character(scalar))
    }
  }
}
