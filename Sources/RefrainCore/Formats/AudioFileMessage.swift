/// The sentences that say why a file cannot be played or read, shared by the decoders
/// (RefrainAudio's `AudioError`) and the tag readers (RefrainTags), so a scan and the player
/// say the same thing about the same file.
package enum AudioFileMessage {
  /// The file does not exist or cannot be read, for the system's `reason`.
  package static func notReadable(path: String, reason: String) -> String {
    "cannot read \(path): \(reason)"
  }

  /// The file holds no bytes.
  package static func empty(path: String) -> String {
    "\(path) is empty: nothing to play"
  }

  /// The file starts as `format` ("FLAC") but does not play; `detail` says why.
  package static func notPlayable(name: String, format: String, detail: String) -> String {
    "\(name) is not playable \(format) audio (\(detail))"
  }

  /// The file's audio is in a codec Refrain has no decoder for (`codec`: "ALAC", "DSD").
  package static func unsupportedCodec(name: String, codec: String) -> String {
    "\(name) holds \(codec) audio, which Refrain cannot decode yet: "
      + "convert it to FLAC, Opus, AAC or MP3 to play it"
  }
}
