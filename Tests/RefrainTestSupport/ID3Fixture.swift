/// The bytes of ID3v2 tags and MPEG frames, for the tests of the tag readers and the scan.
public enum ID3Fixture {
  /// An ID3v2 text frame (v2.3 or v2.4 layout) with the given encoding byte and payload.
  public static func frame(
    _ id: String, _ payload: [UInt8], version: UInt8, flags: [UInt8] = [0, 0]
  )
    -> [UInt8]
  {
    let size = payload.count
    let sizeBytes: [UInt8] =
      version == 4
      ? [
        UInt8(size >> 21 & 0x7F), UInt8(size >> 14 & 0x7F), UInt8(size >> 7 & 0x7F),
        UInt8(size & 0x7F),
      ]
      : [
        UInt8(size >> 24 & 0xFF), UInt8(size >> 16 & 0xFF), UInt8(size >> 8 & 0xFF),
        UInt8(size & 0xFF),
      ]
    return Array(id.utf8) + sizeBytes + flags + payload
  }

  /// A whole ID3v2 tag around `frames`.
  public static func tag(version: UInt8, flags: UInt8 = 0, frames: [UInt8]) -> [UInt8] {
    let size = frames.count
    return [0x49, 0x44, 0x33, version, 0, flags]
      + [
        UInt8(size >> 21 & 0x7F), UInt8(size >> 14 & 0x7F), UInt8(size >> 7 & 0x7F),
        UInt8(size & 0x7F),
      ]
      + frames
  }

  /// `count` frames of MPEG-1 Layer III, 128 kbps, 44.1 kHz, stereo, without padding.
  public static func cbrFrames(_ count: Int) -> [UInt8] {
    let frame = [0xFF, 0xFB, 0x90, 0x00] + [UInt8](repeating: 0, count: 413)
    return Array((0..<count).map { _ in frame }.joined())
  }
}
