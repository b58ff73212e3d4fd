import Foundation

/// Reads one LRC time tag, such as `[01:23.45]` or `<01:23.45>`, from UTF-8 bytes.
///
/// Accepted shapes (whitespace around each number is allowed):
/// - `m:s`, `m:s.f`, `m:s,f`: minutes may exceed 99;
/// - `m:s:f`: FLO's `[mm:ss:SSS]` and `[mm:ss:xx]`;
/// - `h:m:s.f`, `h:m:s,f`, `h:m:s:f`: with hours, minutes must be below 60.
///
/// Seconds must be below 60. The fraction is a decimal fraction of a second
/// (`.1` is 100 ms, `.01` is 10 ms), truncated to whole milliseconds.
enum LRCTimeTag {
  /// The longest run of digits read as a whole number; longer runs make the tag invalid.
  static let maxIntegerDigits = 9

  /// Parses a tag opening with `[` or `<` at `start`.
  ///
  /// Returns the time in milliseconds and the index just after the closing bracket,
  /// or `nil` when the bracket does not hold a valid time.
  static func parse(_ bytes: [UInt8], at start: Int, limit: Int) -> (ms: Int, next: Int)? {
    guard start < limit else { return nil }
    let close: UInt8
    switch bytes[start] {
    case LRCByte.openSquare: close = LRCByte.closeSquare
    case LRCByte.openAngle: close = LRCByte.closeAngle
    default: return nil
    }

    var fields: [Range<Int>] = []
    var fraction: Range<Int>?
    var i = start + 1
    while true {
      i = skipSpaces(bytes, from: i, limit: limit)
      let number = digits(bytes, from: i, limit: limit)
      guard !number.isEmpty, fields.count < 4 else { return nil }
      fields.append(number)
      i = skipSpaces(bytes, from: number.upperBound, limit: limit)
      guard i < limit else { return nil }
      if bytes[i] == LRCByte.colon {
        i += 1
        continue
      }
      if bytes[i] == LRCByte.period || bytes[i] == LRCByte.comma {
        i = skipSpaces(bytes, from: i + 1, limit: limit)
        let decimals = digits(bytes, from: i, limit: limit)
        guard !decimals.isEmpty else { return nil }
        fraction = decimals
        i = skipSpaces(bytes, from: decimals.upperBound, limit: limit)
        guard i < limit else { return nil }
      }
      guard bytes[i] == close else { return nil }
      break
    }

    guard let ms = milliseconds(bytes, fields: fields, fraction: fraction) else { return nil }
    return (ms, i + 1)
  }

  /// Combines the numeric fields of a tag into milliseconds, or `nil` if out of range.
  private static func milliseconds(
    _ bytes: [UInt8], fields: [Range<Int>], fraction: Range<Int>?
  ) -> Int? {
    let hours: Range<Int>?
    let minutes: Range<Int>
    let seconds: Range<Int>
    let decimals: Range<Int>?
    switch (fields.count, fraction) {
    case (2, _):
      (hours, minutes, seconds, decimals) = (nil, fields[0], fields[1], fraction)
    case (3, .some):
      (hours, minutes, seconds, decimals) = (fields[0], fields[1], fields[2], fraction)
    case (3, .none):
      (hours, minutes, seconds, decimals) = (nil, fields[0], fields[1], fields[2])
    case (4, .none):
      (hours, minutes, seconds, decimals) = (fields[0], fields[1], fields[2], fields[3])
    default:
      return nil
    }

    guard let m = integer(bytes, minutes), let s = integer(bytes, seconds), s < 60 else {
      return nil
    }
    var h = 0
    if let hours {
      guard let value = integer(bytes, hours), m < 60 else { return nil }
      h = value
    }
    let fractionMs = decimals.map { millisecondsOfFraction(bytes, $0) } ?? 0
    return ((h * 60 + m) * 60 + s) * 1000 + fractionMs
  }

  /// Reads a run of digits as a whole number, or `nil` if it is too long to be a time.
  private static func integer(_ bytes: [UInt8], _ range: Range<Int>) -> Int? {
    guard range.count <= maxIntegerDigits else { return nil }
    var value = 0
    for index in range {
      value = value * 10 + Int(bytes[index] - LRCByte.zero)
    }
    return value
  }

  /// Reads fraction digits as thousandths: `5` is 500, `05` is 50, `0512` is 51.
  private static func millisecondsOfFraction(_ bytes: [UInt8], _ range: Range<Int>) -> Int {
    var value = 0
    var scale = 100
    for index in range.prefix(3) {
      value += Int(bytes[index] - LRCByte.zero) * scale
      scale /= 10
    }
    return value
  }

  /// Returns the range of consecutive LRCByte digits starting at `start` (possibly empty).
  private static func digits(_ bytes: [UInt8], from start: Int, limit: Int) -> Range<Int> {
    var end = start
    while end < limit, LRCByte.isDigit(bytes[end]) {
      end += 1
    }
    return start..<end
  }

  /// Returns the first index at or after `start` that is not a space or tab.
  static func skipSpaces(_ bytes: [UInt8], from start: Int, limit: Int) -> Int {
    var index = start
    while index < limit, LRCByte.isSpace(bytes[index]) {
      index += 1
    }
    return index
  }
}

/// The LRCByte bytes that LRC syntax is made of.
enum LRCByte {
  static let tab: UInt8 = 0x09
  static let lineFeed: UInt8 = 0x0A
  static let carriageReturn: UInt8 = 0x0D
  static let space: UInt8 = 0x20
  static let comma: UInt8 = 0x2C
  static let hyphen: UInt8 = 0x2D
  static let period: UInt8 = 0x2E
  static let zero: UInt8 = 0x30
  static let colon: UInt8 = 0x3A
  static let openAngle: UInt8 = 0x3C
  static let closeAngle: UInt8 = 0x3E
  static let openSquare: UInt8 = 0x5B
  static let closeSquare: UInt8 = 0x5D
  static let underscore: UInt8 = 0x5F
  static let verticalBar: UInt8 = 0x7C

  /// Whether the byte is `0`–`9`.
  static func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }

  /// Whether the byte is an LRCByte letter.
  static func isLetter(_ byte: UInt8) -> Bool {
    (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
  }

  /// Whether the byte is a space or a tab, the whitespace LRC lines use.
  static func isSpace(_ byte: UInt8) -> Bool { byte == space || byte == tab }
}
