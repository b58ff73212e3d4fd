import Foundation
import RefrainCore

/// The ReplayGain values each tag format stores, read without decoding audio.
extension TagFormat {
  /// No ReplayGain tags: the formats that have none.
  package func replayGain(in file: URL) throws -> ReplayGain { ReplayGain() }
}

extension FLACTagFormat {
  /// `REPLAYGAIN_*` Vorbis comments.
  package func replayGain(in file: URL) throws -> ReplayGain {
    ReplayGain(fields: try Self.read(file, maxPictureBytes: 0).fields)
  }
}

extension OggTagFormat {
  /// `REPLAYGAIN_*` Vorbis comments, and Opus's `R128_*_GAIN` (moved to −18 LUFS).
  package func replayGain(in file: URL) throws -> ReplayGain {
    ReplayGain(fields: try Self.read(file, maxPictureBytes: 0).fields)
  }
}

extension MP4TagFormat {
  /// `----:com.apple.iTunes:replaygain_*` items.
  package func replayGain(in file: URL) throws -> ReplayGain {
    let reader = MP4BoxReader(try MP4FileSource(url: file))
    guard let tags = try? MP4Metadata.read(from: reader).tags else { return ReplayGain() }
    return ReplayGain(fields: tags.replayGainFields.map { (key: $0.key, value: $0.value) })
  }
}

extension WAVTagFormat {
  /// `TXXX` frames described `REPLAYGAIN_*` in the `id3 ` chunk (`LIST/INFO` has none).
  package func replayGain(in file: URL) throws -> ReplayGain {
    guard let tag = try Self.read(file).id3v2Tag else { return ReplayGain() }
    return ReplayGain(
      fields: ID3v2Lyrics(tag: tag).replayGainFields.map { (key: $0.key, value: $0.value) })
  }
}

extension ID3v2Format {
  /// `TXXX` frames described `REPLAYGAIN_*`.
  package func replayGain(in file: URL) throws -> ReplayGain {
    ReplayGain(
      fields: try ID3v2Lyrics.read(from: file).replayGainFields.map {
        (key: $0.key, value: $0.value)
      })
  }
}

extension TagFormats {
  /// The ReplayGain values in the tags of the file at `url`, whatever its format; empty when
  /// it has none. Throws when the file cannot be read.
  package static func replayGain(of url: URL) throws -> ReplayGain {
    try format(of: url).replayGain(in: url)
  }
}
