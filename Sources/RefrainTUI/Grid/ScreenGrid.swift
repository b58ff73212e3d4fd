import Foundation
import RefrainArt
import RefrainCore

/// What a cell means; the theme turns it into colours and attributes.
public enum Style: Int, Sendable, Hashable, CaseIterable {
  case normal, title, dim, accent, selected, current, currentWord, status, error, tabActive,
    tabInactive, progress, border, marker
}

/// A rectangle of cells.
public struct Rect: Sendable, Hashable {
  public var x: Int
  public var y: Int
  public var width: Int
  public var height: Int

  /// Creates a rectangle.
  public init(x: Int, y: Int, width: Int, height: Int) {
    self.x = x
    self.y = y
    self.width = max(0, width)
    self.height = max(0, height)
  }

  /// The rectangle shrunk by `inset` on every side.
  public func inset(by inset: Int) -> Rect {
    Rect(x: x + inset, y: y + inset, width: width - 2 * inset, height: height - 2 * inset)
  }
}

/// An in-memory screen that panes draw into; the terminal layer copies it out.
///
/// Every string is sanitized on its way in, so no escape sequence can reach the
/// terminal. A double-width character fills two cells; the second is a continuation.
public struct ScreenGrid: Sendable, Equatable {
  /// One cell: a character (empty for the right half of a wide one) and its style.
  public struct Cell: Sendable, Equatable {
    public var text: String
    public var style: Style

    /// A blank cell.
    public static let blank = Cell(text: " ", style: .normal)
  }

  public let width: Int
  public let height: Int
  public private(set) var cells: [Cell]
  /// Pictures shown over blank rectangles of the grid (the cover), drawn by the terminal
  /// after the text.
  public var pictures: [Picture] = []

  /// Creates a blank grid.
  public init(width: Int, height: Int) {
    self.width = max(0, width)
    self.height = max(0, height)
    cells = Array(repeating: .blank, count: self.width * self.height)
  }

  /// The cell at a position.
  public subscript(x: Int, y: Int) -> Cell { cells[y * width + x] }

  /// Writes `text` at (x, y), cut at `maxWidth` columns (and the grid's edge) with `…`.
  ///
  /// Returns the columns written.
  @discardableResult
  public mutating func put(
    _ text: String, x: Int, y: Int, maxWidth: Int? = nil, style: Style = .normal
  ) -> Int {
    guard y >= 0, y < height, x < width else { return 0 }
    let start = max(0, x)
    let room = min(maxWidth ?? Int.max, width - start)
    guard room > 0 else { return 0 }
    let visible = DisplayWidth.truncate(TerminalSanitizer.clean(text), to: room)
    var column = start
    for character in visible {
      let scalars = character.unicodeScalars
      let widthOfCharacter = scalars.reduce(0) { $0 + DisplayWidth.of($1) }
      if widthOfCharacter == 0 { continue }  // a lone zero-width mark has nothing to show
      let cellWidth = min(widthOfCharacter, 2)
      guard column + cellWidth <= start + room else { break }
      setCell(x: column, y: y, Cell(text: String(character), style: style), wide: cellWidth == 2)
      column += cellWidth
    }
    return column - start
  }

  /// Writes `text` centred in the row segment `x..<x+width`.
  @discardableResult
  public mutating func putCentered(
    _ text: String, x: Int, y: Int, width: Int, style: Style = .normal
  ) -> Int {
    let clean = TerminalSanitizer.clean(text)
    let textWidth = min(DisplayWidth.of(clean), width)
    return put(clean, x: x + max(0, (width - textWidth) / 2), y: y, maxWidth: width, style: style)
  }

  /// Fills a rectangle with blanks in `style`.
  public mutating func fill(_ rect: Rect, style: Style = .normal) {
    for row in max(0, rect.y)..<min(height, rect.y + rect.height) {
      for column in max(0, rect.x)..<min(width, rect.x + rect.width) {
        setCell(x: column, y: row, Cell(text: " ", style: style), wide: false)
      }
    }
  }

  /// Draws a box outline around `rect` with an optional title.
  public mutating func box(_ rect: Rect, title: String? = nil, style: Style = .border) {
    guard rect.width >= 2, rect.height >= 2 else { return }
    let right = rect.x + rect.width - 1
    let bottom = rect.y + rect.height - 1
    for column in rect.x...right {
      let edge = column == rect.x || column == right
      put(edge ? "+" : "-", x: column, y: rect.y, style: style)
      put(edge ? "+" : "-", x: column, y: bottom, style: style)
    }
    if rect.height > 2 {
      for row in (rect.y + 1)..<bottom {
        put("|", x: rect.x, y: row, style: style)
        put("|", x: right, y: row, style: style)
      }
    }
    if let title, rect.width > 4 {
      put(" \(title) ", x: rect.x + 2, y: rect.y, maxWidth: rect.width - 4, style: .title)
    }
  }

  /// The grid as plain text, one line per row, trailing spaces removed (for tests and docs).
  public var text: String {
    (0..<height).map { row($0) }.joined(separator: "\n")
  }

  /// One row as plain text, trailing spaces removed.
  public func row(_ y: Int) -> String {
    var line = ""
    for x in 0..<width { line += cells[y * width + x].text }
    while line.hasSuffix(" ") { line.removeLast() }
    return line
  }

  /// Whether a row differs from the same row of `other`.
  public func rowDiffers(_ y: Int, from other: ScreenGrid) -> Bool {
    guard other.width == width, other.height == height else { return true }
    let range = (y * width)..<((y + 1) * width)
    return cells[range] != other.cells[range]
  }

  /// Whether any cell inside `rect` differs from the same cell of `other`.
  public func cellsDiffer(in rect: Rect, from other: ScreenGrid) -> Bool {
    guard other.width == width, other.height == height else { return true }
    for y in max(0, rect.y)..<min(height, rect.y + rect.height) {
      let start = y * width + max(0, rect.x)
      let end = y * width + min(width, rect.x + rect.width)
      if start < end, cells[start..<end] != other.cells[start..<end] { return true }
    }
    return false
  }

  private mutating func setCell(x: Int, y: Int, _ cell: Cell, wide: Bool) {
    let index = y * width + x
    // Overwriting half of a wide character blanks the other half.
    if cells[index].text.isEmpty, x > 0 { cells[index - 1] = .blank }
    if x + 1 < width, cells[index + 1].text.isEmpty, !wide { cells[index + 1] = .blank }
    cells[index] = cell
    if wide, x + 1 < width {
      if x + 2 < width, cells[index + 2].text.isEmpty { cells[index + 2] = .blank }
      cells[index + 1] = Cell(text: "", style: cell.style)
    }
  }
}

/// A picture on the screen: what it shows, the cells it covers (the grid leaves them
/// blank), and the identity the terminal uses to send it once.
public struct Picture: Sendable, Equatable {
  /// The cells it covers.
  public var rect: Rect
  /// Names what is shown (the cover's album and size): a picture with the same key and
  /// place is not sent again.
  public var key: String
  /// The picture in half blocks, `rect`'s size.
  public var cells: HalfBlockCover
  /// The picture as a PNG, for the graphics protocols (kitty, iTerm2); `nil` when only half
  /// blocks are drawn.
  public var png: Data?

  /// Creates a picture.
  public init(rect: Rect, key: String, cells: HalfBlockCover, png: Data? = nil) {
    self.rect = rect
    self.key = key
    self.cells = cells
    self.png = png
  }

  /// Pictures are told apart by what they show and where.
  public static func == (lhs: Picture, rhs: Picture) -> Bool {
    lhs.key == rhs.key && lhs.rect == rhs.rect
  }
}
