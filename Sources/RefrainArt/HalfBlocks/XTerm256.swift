/// The xterm 256-colour palette's portable part and the nearest entry to any colour.
///
/// Only indices 16–255 are used: the 6×6×6 cube (16–231, levels 0, 95, 135, 175, 215, 255)
/// and the grey ramp (232–255, 8 + 10k). The 16 system colours are left out, since every
/// terminal theme redefines them.
///
/// "Nearest" is by the redmean distance, a weighted RGB distance that follows perception
/// far better than plain RGB at the cost of a multiply:
/// `(2 + r̄/256)·ΔR² + 4·ΔG² + (2 + (255 − r̄)/256)·ΔB²`, where `r̄` is the mean red.
/// Ties go to the lower index.
public enum XTerm256 {
  /// The six channel levels of the colour cube.
  public static let cubeLevels: [UInt8] = [0, 95, 135, 175, 215, 255]

  /// The colour of palette entry `index` (16–255); entries below 16 read as black.
  public static func color(of index: UInt8) -> RGB {
    switch index {
    case 16...231:
      let n = Int(index) - 16
      return RGB(cubeLevels[n / 36], cubeLevels[n / 6 % 6], cubeLevels[n % 6])
    case 232...255:
      let level = UInt8(8 + 10 * (Int(index) - 232))
      return RGB(level, level, level)
    default:
      return .black
    }
  }

  /// The palette entry (16–255) nearest to `color` by the redmean distance.
  public static func index(for color: RGB) -> UInt8 {
    var best: UInt8 = 16
    var bestDistance = Int.max
    for index in 16...255 {
      let distance = redmeanDistance(color, palette[index - 16])
      if distance < bestDistance {
        bestDistance = distance
        best = UInt8(index)
      }
    }
    return best
  }

  /// The redmean distance between two colours, squared and scaled by 256 (integers only).
  public static func redmeanDistance(_ a: RGB, _ b: RGB) -> Int {
    let meanRed = (Int(a.r) + Int(b.r)) / 2
    let dr = Int(a.r) - Int(b.r)
    let dg = Int(a.g) - Int(b.g)
    let db = Int(a.b) - Int(b.b)
    return (512 + meanRed) * dr * dr + 1024 * dg * dg + (767 - meanRed) * db * db
  }

  /// Entries 16–255 in order.
  private static let palette: [RGB] = (16...255).map { color(of: UInt8($0)) }
}
