/// Resizes images with an area-averaging (box) filter: each output pixel is the mean of the
/// source area it covers, partial pixels weighted by the part covered.
public enum ImageScaler {
  /// `image` resized to `width × height` (each at least 1).
  public static func scaled(_ image: RGBImage, width: Int, height: Int) -> RGBImage {
    let width = max(1, width)
    let height = max(1, height)
    if width == image.width, height == image.height { return image }
    // Separable: rows first (source height × target width), then columns.
    let horizontal = weights(from: image.width, to: width)
    let vertical = weights(from: image.height, to: height)
    var rows = [Float](repeating: 0, count: image.height * width * 3)
    image.pixels.withUnsafeBufferPointer { source in
      rows.withUnsafeMutableBufferPointer { out in
        for y in 0..<image.height {
          let sourceRow = y * image.width * 3
          let outRow = y * width * 3
          for (x, span) in horizontal.enumerated() {
            var r: Float = 0
            var g: Float = 0
            var b: Float = 0
            for (offset, weight) in span.weights.enumerated() {
              let i = sourceRow + (span.first + offset) * 3
              r += Float(source[i]) * weight
              g += Float(source[i + 1]) * weight
              b += Float(source[i + 2]) * weight
            }
            out[outRow + x * 3] = r
            out[outRow + x * 3 + 1] = g
            out[outRow + x * 3 + 2] = b
          }
        }
      }
    }
    var pixels = [UInt8](repeating: 0, count: width * height * 3)
    let rowLength = width * 3
    rows.withUnsafeBufferPointer { rows in
      pixels.withUnsafeMutableBufferPointer { out in
        for (y, span) in vertical.enumerated() {
          for i in 0..<rowLength {
            var sum: Float = 0
            for (offset, weight) in span.weights.enumerated() {
              sum += rows[(span.first + offset) * rowLength + i] * weight
            }
            out[y * rowLength + i] = UInt8(min(255, max(0, sum.rounded())))
          }
        }
      }
    }
    return RGBImage(width: width, height: height, pixels: pixels)
  }

  /// The source pixels one output pixel covers and how much of each, summing to 1.
  struct Span {
    var first: Int
    var weights: [Float]
  }

  /// The spans of `target` output pixels over `source` input pixels.
  static func weights(from source: Int, to target: Int) -> [Span] {
    let step = Double(source) / Double(target)
    return (0..<target).map { index in
      let start = Double(index) * step
      let end = min(Double(source), start + step)
      let first = min(source - 1, Int(start))
      let last = max(first, min(source - 1, Int((end - 1e-9).rounded(.down))))
      var weights: [Float] = []
      for pixel in first...last {
        let covered = min(end, Double(pixel + 1)) - max(start, Double(pixel))
        weights.append(Float(max(0, covered) / step))
      }
      return Span(first: first, weights: weights)
    }
  }
}
