/// An HTTP `Range: bytes=…` request against a file of known size (RFC 9110, one range).
public enum ByteRange: Equatable, Sendable {
  /// No usable range: the whole file (200). A header that is not one byte range is ignored,
  /// as the RFC allows.
  case whole
  /// The bytes `range` of the file (206 with `Content-Range`).
  case part(ClosedRange<Int>)
  /// A range wholly past the end (416).
  case unsatisfiable

  /// The range `header` asks of a file of `size` bytes.
  public static func parse(_ header: String?, size: Int) -> ByteRange {
    guard let header else { return .whole }
    let text = header.trimmingCharacters(in: .whitespaces)
    guard text.lowercased().hasPrefix("bytes=") else { return .whole }
    let spec = text.dropFirst(6)
    guard !spec.contains(","), let dash = spec.firstIndex(of: "-") else { return .whole }
    let first = spec[..<dash].trimmingCharacters(in: .whitespaces)
    let last = spec[spec.index(after: dash)...].trimmingCharacters(in: .whitespaces)
    if first.isEmpty {
      // A suffix: the last N bytes.
      guard let count = Int(last), count > 0 else { return last.isEmpty ? .whole : .unsatisfiable }
      guard size > 0 else { return .unsatisfiable }
      return .part(max(0, size - count)...(size - 1))
    }
    guard let start = Int(first), start >= 0 else { return .whole }
    guard start < size else { return .unsatisfiable }
    if last.isEmpty { return .part(start...(size - 1)) }
    guard let end = Int(last), end >= start else { return .whole }
    return .part(start...min(end, size - 1))
  }
}
