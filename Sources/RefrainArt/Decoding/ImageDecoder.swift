import CImageShims
import Foundation

/// The image formats the decoder reads, told apart by their first bytes only.
public enum ImageFormat: Sendable, Equatable {
  case png
  case jpeg

  /// The format whose signature `bytes` starts with; `nil` for anything else.
  ///
  /// A file name or MIME type is never consulted: an ID3 picture whose MIME type lies still
  /// decodes when its bytes are a real image.
  public static func sniff<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> ImageFormat? {
    let head = Array(bytes.prefix(8))
    if head == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] { return .png }
    if head.count >= 3, head[0] == 0xFF, head[1] == 0xD8, head[2] == 0xFF { return .jpeg }
    return nil
  }

  /// The usual file name extension, for cached copies.
  public var fileExtension: String { self == .png ? "png" : "jpg" }
}

/// The most a cover may cost; checked before memory is spent on it.
public struct CoverLimits: Sendable, Equatable {
  /// The most bytes of encoded picture that are read or decoded.
  public var maxBytes: Int
  /// The most pixels (width × height) a header may declare.
  public var maxPixels: Int
  /// The most pixels a side (width or height) may have.
  public var maxSide: Int

  public init(maxBytes: Int = 32 << 20, maxPixels: Int = 40_000_000, maxSide: Int = 20_000) {
    self.maxBytes = maxBytes
    self.maxPixels = maxPixels
    self.maxSide = maxSide
  }

  /// 32 MiB, 40 megapixels, 20,000 pixels a side.
  public static let standard = CoverLimits()
}

/// Decodes PNG and JPEG pictures into `RGBImage`s with bounded memory; never traps and never
/// prints, whatever the input.
///
/// Decoding costs milliseconds to tens of milliseconds: call it off the UI thread.
public enum ImageDecoder {
  /// Decodes `data`, compositing any transparency over `background`.
  ///
  /// - Parameters:
  ///   - limits: the byte count is checked first, then the header's size, before any pixel
  ///     buffer is allocated.
  ///   - box: when given (pixels), a large JPEG is decoded at a reduced DCT scale that still
  ///     leaves at least twice the pixels the image needs when fitted into that box, so a
  ///     1000×1000 photo bound for 30×30 pixels decodes at 125×125.
  /// - Throws: `CoverError` for anything that is not a decodable PNG or JPEG within limits.
  public static func decode(
    _ data: Data, limits: CoverLimits = .standard, background: RGB = .black,
    box: (width: Int, height: Int)? = nil
  ) throws(CoverError) -> RGBImage {
    guard data.count <= limits.maxBytes else {
      throw .tooManyBytes(count: data.count, limit: limits.maxBytes)
    }
    guard let format = ImageFormat.sniff(data) else {
      throw data.count < 8 && !data.isEmpty && [0x89, 0xFF].contains(data.first)
        ? .truncated : .unsupportedFormat
    }
    let cLimits = refrain_image_limits(
      max_pixels: UInt64(max(0, limits.maxPixels)), max_side: UInt32(clamping: limits.maxSide))
    var image = refrain_image()
    let status = data.withUnsafeBytes { raw -> Int32 in
      let base = raw.bindMemory(to: UInt8.self).baseAddress
      switch format {
      case .png:
        return refrain_png_decode(
          base, raw.count, cLimits, background.r, background.g, background.b, &image)
      case .jpeg:
        let boxWidth = UInt32(clamping: max(0, box?.width ?? 0))
        let boxHeight = UInt32(clamping: max(0, box?.height ?? 0))
        return refrain_jpeg_decode(base, raw.count, cLimits, boxWidth, boxHeight, &image)
      }
    }
    defer { refrain_image_free(image.pixels) }
    guard status == Int32(REFRAIN_IMAGE_OK), let pixels = image.pixels else {
      throw error(status: status, image: &image)
    }
    let width = Int(image.width)
    let height = Int(image.height)
    return RGBImage(
      width: width, height: height,
      pixels: Array(UnsafeBufferPointer(start: pixels, count: width * height * 3)))
  }

  /// The `CoverError` for a shim's status code.
  static func error(status: Int32, image: inout refrain_image) -> CoverError {
    switch status {
    case Int32(REFRAIN_IMAGE_TRUNCATED): return .truncated
    case Int32(REFRAIN_IMAGE_TOO_LARGE):
      return .tooLarge(width: Int(image.source_width), height: Int(image.source_height))
    case Int32(REFRAIN_IMAGE_NO_MEMORY): return .outOfMemory
    default:
      let detail = withUnsafeBytes(of: &image.message) { raw in
        String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
      }
      return .corrupt(detail: detail.isEmpty ? "unreadable" : detail)
    }
  }
}
