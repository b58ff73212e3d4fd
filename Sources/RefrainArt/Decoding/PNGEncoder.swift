import CImageShims
import Foundation

/// Encodes an `RGBImage` as a PNG file's bytes (libpng), for the graphics protocols that
/// take an encoded image (iTerm2, kitty's `f=100`).
public enum PNGEncoder {
  /// The PNG encoding of `image`; it decodes back to exactly the same pixels.
  public static func encode(_ image: RGBImage) throws(CoverError) -> Data {
    var output: UnsafeMutablePointer<UInt8>?
    var size = 0
    var message = refrain_image().message
    let status = image.pixels.withUnsafeBufferPointer { pixels in
      withUnsafeMutableBytes(of: &message) { text in
        refrain_png_encode_rgb(
          pixels.baseAddress, UInt32(image.width), UInt32(image.height), &output, &size,
          text.baseAddress?.assumingMemoryBound(to: CChar.self))
      }
    }
    defer { refrain_image_free(output) }
    guard status == Int32(REFRAIN_IMAGE_OK), let output else {
      if status == Int32(REFRAIN_IMAGE_NO_MEMORY) { throw .outOfMemory }
      let detail = withUnsafeBytes(of: &message) {
        String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self)
      }
      throw .corrupt(detail: detail)
    }
    return Data(bytes: output, count: size)
  }
}
