import Foundation
import RefrainCore

/// A track's cover, scaled for the screen.
public struct ScaledCover: Sendable {
  /// The cover in half blocks.
  public var cells: HalfBlockCover
  /// The cover as a PNG of about the cells' size in pixels, for kitty and iTerm2.
  public var png: Data?

  /// Creates a scaled cover.
  public init(cells: HalfBlockCover, png: Data? = nil) {
    self.cells = cells
    self.png = png
  }
}

/// Finds tracks' covers and scales them.
///
/// Every call is slow work (files, the network, decoding): the full-screen player calls it
/// off the UI thread only.
public protocol CoverProvider: Sendable {
  /// The cover of `track` fitted into `box`, and as a PNG too when `png` is set.
  ///
  /// Throws why there is none: no picture found, or one that could not be read.
  func cover(for track: Track, fitting box: CellSize, png: Bool) async throws -> ScaledCover
}

/// Covers found by a ``CoverLocator``: the track's embedded picture, an image in its folder,
/// or its catalog's cover, as half blocks (from the locator's cell cache when the album
/// was drawn at that size before) and, for the graphics protocols, as a PNG.
///
/// A catalog cover whose URL names its size is asked at the box's size in pixels (see
/// ``pixels(for:png:)``), rounded up to one of ``CoverSizing/buckets``.
public struct LocatedCovers: CoverProvider {
  /// The locator, with its disk cache (where MPRIS finds the cover file) and fetch.
  public let locator: CoverLocator

  /// Creates covers over `locator`.
  public init(locator: CoverLocator) { self.locator = locator }

  /// Pixels per cell of the PNG sent to kitty or iTerm2: about a terminal cell's size, so
  /// the terminal scales little and the image stays small.
  static let pixelsPerCell = (width: 10, height: 20)

  public func cover(for track: Track, fitting box: CellSize, png: Bool) async throws
    -> ScaledCover
  {
    let request = Self.request(for: track, pixels: Self.pixels(for: box, png: png))
    let cells = try await locator.halfBlockCover(for: request, in: box, colors: .trueColor)
    guard png else { return ScaledCover(cells: cells) }
    let located = try await locator.locate(request)
    let width = cells.columns * Self.pixelsPerCell.width
    let height = cells.rows * Self.pixelsPerCell.height
    let image = try ImageDecoder.decode(
      located.data, limits: locator.limits, box: (width, height))
    let encoded = try PNGEncoder.encode(ImageScaler.scaled(image, width: width, height: height))
    return ScaledCover(cells: cells, png: encoded)
  }

  /// The longer side, in pixels, of a picture that fills `box`: one pixel wide and two high
  /// a cell in half blocks, ``pixelsPerCell`` for the PNG; the longer side so a picture of
  /// any shape fills the box.
  public static func pixels(for box: CellSize, png: Bool) -> Int {
    let perCell = png ? pixelsPerCell : (width: 1, height: 2)
    return max(box.columns * perCell.width, box.rows * perCell.height)
  }

  /// What to look for: a local file's tag and folder, the album (shared by its tracks), and
  /// the catalog's cover, to be drawn `pixels` large (`nil`: no size in particular).
  public static func request(for track: Track, pixels: Int? = nil) -> CoverRequest {
    let file = track.location.isFileURL ? track.location : nil
    return CoverRequest(
      audioFile: file,
      albumKey: CoverRequest.albumKey(
        artist: track.artist, album: track.album, folder: file?.deletingLastPathComponent()),
      catalogCover: track.coverURL, pixels: pixels)
  }
}
