/// Why a cover could not be shown; every case reads as one line for the log, and the caller
/// draws a placeholder box instead.
public enum CoverError: Error, Equatable, Sendable, CustomStringConvertible {
  /// The data ended before the image did (a cut download or a damaged tag).
  case truncated
  /// The decoder rejected the data; `detail` is its own words.
  case corrupt(detail: String)
  /// The bytes are neither a PNG nor a JPEG (their MIME type or file name is not consulted).
  case unsupportedFormat
  /// The header declares more pixels than the limits allow; nothing was allocated for them.
  case tooLarge(width: Int, height: Int)
  /// The picture is more bytes than the limit; it was not read into memory.
  case tooManyBytes(count: Int, limit: Int)
  /// None of the sources has a cover for this track.
  case notFound
  /// A file could not be read or written (`path`, then the system's reason).
  case fileFailed(path: String, reason: String)
  /// The catalog's cover could not be downloaded (the fetch closure's error).
  case fetchFailed(reason: String)
  /// An allocation failed while decoding or encoding.
  case outOfMemory

  public var description: String {
    switch self {
    case .truncated: "cover art: the image data ends early (truncated file)"
    case .corrupt(let detail): "cover art: the image is damaged (\(detail))"
    case .unsupportedFormat: "cover art: not a PNG or JPEG image"
    case .tooLarge(let width, let height):
      "cover art: the image is \(width)×\(height) pixels, more than allowed"
    case .tooManyBytes(let count, let limit):
      "cover art: the picture is \(count) bytes, more than the \(limit)-byte limit"
    case .notFound: "cover art: no embedded picture, folder image or catalog cover"
    case .fileFailed(let path, let reason): "cover art: \(path): \(reason)"
    case .fetchFailed(let reason): "cover art: the download failed (\(reason))"
    case .outOfMemory: "cover art: out of memory while decoding"
    }
  }
}
