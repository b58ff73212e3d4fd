import Foundation
import RefrainCore

/// What `refrain lyrics FILE` found in a file, chosen by the file's first bytes.
public enum LyricsFileContent: Sendable {
  /// A lyrics file (LRC or a FLO song JSON), parsed.
  case lyricsFile(LyricsDocument)
  /// An audio file of `format` whose tags hold these lyrics.
  case embedded(LyricsDocument, format: AudioFormat)
  /// An audio file of `format` whose tags hold no lyrics.
  case noEmbeddedLyrics(format: AudioFormat)
}

/// Reads what `refrain lyrics FILE` shows: the embedded lyrics of an audio file, or the
/// lyrics file itself.
///
/// The choice is made by the file's first bytes (RefrainCore's ``AudioFormat`` table, as the
/// decoders and tag readers choose), never by its name, so an audio file is never parsed
/// as LRC and its bytes never printed.
public enum LyricsFileReader {
  /// The content of the file at `url`.
  ///
  /// - Throws: ``LyricsError`` when the file cannot be read or is JSON but not a FLO song.
  public static func read(_ url: URL) throws -> LyricsFileContent {
    let head: [UInt8]
    do {
      let handle = try FileHandle(forReadingFrom: url)
      defer { try? handle.close() }
      head = [UInt8](try handle.read(upToCount: 64) ?? Data())
    } catch {
      // LyricsDocument.load words the reason (missing, a folder, no permission).
      return .lyricsFile(try LyricsDocument.load(from: url))
    }
    guard let format = AudioFormat.detect(head: head) else {
      return .lyricsFile(try LyricsDocument.load(from: url))
    }
    let found: LyricsDocument?
    do {
      found = try EmbeddedLyricsSource.document(in: url)
    } catch {
      throw LyricsError.unreadable(path: url.path, reason: "its tags could not be read")
    }
    guard let found else { return .noEmbeddedLyrics(format: format) }
    return .embedded(found, format: format)
  }
}
