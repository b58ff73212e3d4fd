import Foundation

/// A cover drawn with upper half blocks: each cell shows `▀` (U+2580) with its top pixel as
/// the foreground colour and its bottom pixel as the background.
public struct HalfBlockCover: Equatable, Sendable {
  /// One terminal cell: two stacked pixels.
  public struct Cell: Equatable, Sendable {
    public var top: RGB
    public var bottom: RGB

    public init(top: RGB, bottom: RGB) {
      self.top = top
      self.bottom = bottom
    }
  }

  public var columns: Int
  public var rows: Int
  /// Row-major, `columns * rows` cells.
  public var cells: [Cell]

  /// The cell at column `x`, row `y`.
  public subscript(x: Int, y: Int) -> Cell { cells[y * columns + x] }

  /// The cells of `image` as it is, two pixel rows a cell row; an odd last pixel row gets
  /// `background` below it.
  public init(image: RGBImage, background: RGB = .black) {
    columns = image.width
    rows = (image.height + 1) / 2
    var cells: [Cell] = []
    cells.reserveCapacity(columns * rows)
    for y in 0..<rows {
      for x in 0..<columns {
        let bottomRow = y * 2 + 1
        cells.append(
          Cell(
            top: image[x, y * 2],
            bottom: bottomRow < image.height ? image[x, bottomRow] : background))
      }
    }
    self.cells = cells
  }

  /// `image` fitted into `box` (aspect ratio kept, see `CellSize.fitting`), scaled with the
  /// box filter, as cells.
  public init(fitting image: RGBImage, in box: CellSize) {
    let size = CellSize.fitting(imageWidth: image.width, imageHeight: image.height, in: box)
    let pixels = size.halfBlockPixels
    guard pixels.width > 0, pixels.height > 0 else {
      self.init(image: RGBImage(width: 0, height: 0, pixels: []))
      return
    }
    self.init(image: ImageScaler.scaled(image, width: pixels.width, height: pixels.height))
  }

  /// Decodes `data` and fits it into `box`: the whole way from picture bytes to cells.
  ///
  /// Decoding is slow work: call this off the UI thread.
  public init(
    decoding data: Data, in box: CellSize, limits: CoverLimits = .standard,
    background: RGB = .black
  ) throws(CoverError) {
    let image = try ImageDecoder.decode(
      data, limits: limits, background: background, box: box.halfBlockPixels)
    self.init(fitting: image, in: box)
  }

  // MARK: - Escape sequences

  /// Each row as terminal output: SGR colours and `▀`, ending with `ESC[0m`.
  ///
  /// No cursor movement: the caller moves to each row's start. A colour is sent only when it
  /// differs from the cell before; a cell whose two pixels match is a space on the background
  /// colour (no foreground needed). `colors == .none` gives empty rows.
  public func encodedRows(_ colors: TerminalColors) -> [String] {
    guard colors != .none else { return Array(repeating: "", count: rows) }
    var palette: [RGB: UInt8] = [:]
    func paletteIndex(_ color: RGB) -> UInt8 {
      if let index = palette[color] { return index }
      let index = XTerm256.index(for: color)
      palette[color] = index
      return index
    }
    func append(_ color: RGB, layer: UInt8, to out: inout [UInt8]) {
      out.append(layer)  // "3" foreground, "4" background
      if colors == .trueColor {
        out.append(contentsOf: Array("8;2;\(color.r);\(color.g);\(color.b)".utf8))
      } else {
        out.append(contentsOf: Array("8;5;\(paletteIndex(color))".utf8))
      }
    }
    var lines: [String] = []
    lines.reserveCapacity(rows)
    var out: [UInt8] = []
    for y in 0..<rows {
      out.removeAll(keepingCapacity: true)
      var foreground: RGB?
      var background: RGB?
      for x in 0..<columns {
        let cell = cells[y * columns + x]
        let solid = cell.top == cell.bottom
        let newForeground = !solid && cell.top != foreground
        let newBackground = cell.bottom != background
        if newForeground || newBackground {
          out.append(contentsOf: [0x1B, 0x5B])  // ESC [
          if newForeground { append(cell.top, layer: 0x33, to: &out) }
          if newForeground, newBackground { out.append(0x3B) }  // ;
          if newBackground { append(cell.bottom, layer: 0x34, to: &out) }
          out.append(0x6D)  // m
        }
        if newForeground { foreground = cell.top }
        background = cell.bottom
        if solid { out.append(0x20) } else { out.append(contentsOf: [0xE2, 0x96, 0x80]) }  // ▀
      }
      out.append(contentsOf: [0x1B, 0x5B, 0x30, 0x6D])  // ESC [ 0 m
      lines.append(String(decoding: out, as: UTF8.self))
    }
    return lines
  }
}
