import Foundation

extension LyricsDocument {
  /// Loads lyrics from a file: a FLO song JSON when it starts with `{`, LRC otherwise.
  ///
  /// - Throws: `LyricsError.unreadable` if the file cannot be read, or
  ///   `LyricsError.invalidFLOSong` if it is JSON but not a FLO song.
  public static func load(from url: URL) throws -> LyricsDocument {
    let data: Data
    do {
      data = try Data(contentsOf: url)
    } catch {
      let path = url.isFileURL ? url.path : url.absoluteString
      throw LyricsError.unreadable(path: path, reason: readReason(error))
    }
    return try load(data: data)
  }

  /// Loads lyrics from the bytes of a file: a FLO song JSON when it starts with `{`, LRC
  /// otherwise.
  ///
  /// - Throws: `LyricsError.invalidFLOSong` if the bytes are JSON but not a FLO song.
  public static func load(data: Data) throws -> LyricsDocument {
    let text = LyricsTextDecoder.decode(data)
    let firstVisible = text.unicodeScalars.first {
      !$0.properties.isWhitespace && $0 != "\u{FEFF}"
    }
    guard firstVisible == "{" else { return LRCParser.parse(text) }
    do {
      return try JSONDecoder().decode(FLOSong.self, from: Data(text.utf8)).lyricsDocument
    } catch {
      throw LyricsError.invalidFLOSong(reason: decodingReason(error))
    }
  }

  /// A short reason for a read failure, without Foundation's long error domains.
  private static func readReason(_ error: any Error) -> String {
    let nsError = error as NSError
    if let underlying = nsError.userInfo[NSUnderlyingErrorKey] as? NSError {
      return underlying.localizedDescription
    }
    return nsError.localizedDescription
  }

  /// A short reason for a JSON decoding failure.
  private static func decodingReason(_ error: any Error) -> String {
    switch error as? DecodingError {
    case .keyNotFound(let key, _):
      return "no \"\(key.stringValue)\" field"
    case .typeMismatch(_, let context), .valueNotFound(_, let context):
      let path = context.codingPath.map(\.stringValue).joined(separator: ".")
      return path.isEmpty ? context.debugDescription : "bad \"\(path)\" field"
    case .dataCorrupted(let context):
      return context.debugDescription
    default:
      return String(describing: error)
    }
  }
}
