/// One 8-bit sRGB colour.
public struct RGB: Hashable, Sendable, CustomStringConvertible {
  public var r: UInt8
  public var g: UInt8
  public var b: UInt8

  public init(_ r: UInt8, _ g: UInt8, _ b: UInt8) {
    self.r = r
    self.g = g
    self.b = b
  }

  /// Black: the default background under transparent pixels.
  public static let black = RGB(0, 0, 0)

  public var description: String { "rgb(\(r),\(g),\(b))" }
}

/// A decoded image: `width × height` pixels, rows top to bottom, 3 bytes (R, G, B) a pixel.
///
/// `pixels.count == width * height * 3` always holds for images this module makes.
public struct RGBImage: Equatable, Sendable {
  public var width: Int
  public var height: Int
  public var pixels: [UInt8]

  /// Creates an image from its pixels; `pixels` must hold `width * height * 3` bytes.
  public init(width: Int, height: Int, pixels: [UInt8]) {
    precondition(pixels.count == width * height * 3, "RGBImage: pixel count does not match")
    self.width = width
    self.height = height
    self.pixels = pixels
  }

  /// The colour at column `x`, row `y` (both in range).
  public subscript(x: Int, y: Int) -> RGB {
    let i = (y * width + x) * 3
    return RGB(pixels[i], pixels[i + 1], pixels[i + 2])
  }
}
