/// A size in terminal cells.
public struct CellSize: Hashable, Sendable {
  public var columns: Int
  public var rows: Int

  public init(columns: Int, rows: Int) {
    self.columns = columns
    self.rows = rows
  }

  /// The half-block pixel size the cells show: one pixel wide and two tall a cell.
  public var halfBlockPixels: (width: Int, height: Int) { (columns, rows * 2) }

  /// How many cells an image of `width × height` pixels takes in half blocks when fitted
  /// into `box`, keeping its aspect ratio (a cell is about twice as tall as wide, so one
  /// cell shows one pixel across and two down).
  ///
  /// The result is never larger than the box, and never zero unless the box is empty: a
  /// square image in a 30×15 box takes 30 columns × 15 rows (30×30 pixels), a 2:1 panorama
  /// 30 columns × 8 rows.
  public static func fitting(imageWidth: Int, imageHeight: Int, in box: CellSize) -> CellSize {
    guard box.columns > 0, box.rows > 0 else { return CellSize(columns: 0, rows: 0) }
    guard imageWidth > 0, imageHeight > 0 else { return box }
    let boxWidth = Double(box.columns)
    let boxHeight = Double(box.rows * 2)
    let scale = min(boxWidth / Double(imageWidth), boxHeight / Double(imageHeight))
    let columns = min(box.columns, max(1, Int((Double(imageWidth) * scale).rounded())))
    let pixelRows = max(1, Int((Double(imageHeight) * scale).rounded()))
    let rows = min(box.rows, max(1, (pixelRows + 1) / 2))
    return CellSize(columns: columns, rows: rows)
  }
}
