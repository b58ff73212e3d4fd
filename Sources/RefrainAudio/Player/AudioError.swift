import RefrainCore

/// Every way the audio layer can fail; each message says what the user can do.
public enum AudioError: Error, Sendable, Equatable, CustomStringConvertible {
  /// The file does not exist or cannot be read.
  case fileNotReadable(path: String, reason: String)
  /// The file is empty.
  case emptyFile(path: String)
  /// The data is not MP3 audio that libmpg123 can decode.
  case notMP3(name: String, detail: String)
  /// The file is in a container Refrain reads (`format`: "M4A") but cannot be played:
  /// damaged, cut short, or without a sound track; `detail` says which.
  case notPlayable(name: String, format: String, detail: String)
  /// The file's audio is in a codec Refrain has no decoder for (`codec`: "ALAC").
  case unsupportedCodec(name: String, codec: String)
  /// Decoding stopped partway through.
  case decodeFailed(name: String, at: Double, detail: String)
  /// An HTTP stream answered with an error status.
  case httpStatus(url: String, status: Int)
  /// An HTTP stream failed in transport (refused, reset, dropped mid-file).
  case transport(url: String, detail: String)
  /// An HTTP stream did not answer in time.
  case timeout(url: String, seconds: Double)
  /// No PulseAudio server could be reached.
  case noAudioServer(detail: String)
  /// The audio output failed after it was opened.
  case outputFailed(detail: String)
  /// A file could not be written (for the WAV output).
  case cannotWrite(path: String, reason: String)
  /// A radio playlist (`.pls`, `.m3u`) gave nothing that plays; `detail` says why.
  case playlist(name: String, detail: String)
  /// The stream cannot seek; `reason` says why, for the user (a transcoded stream).
  case notSeekable(name: String, reason: String)

  public var description: String {
    switch self {
    case .fileNotReadable(let path, let reason):
      return AudioFileMessage.notReadable(path: path, reason: reason)
    case .emptyFile(let path):
      return AudioFileMessage.empty(path: path)
    case .notMP3(let name, let detail):
      return "\(name) is not playable MP3 audio (\(detail))"
    case .notPlayable(let name, let format, let detail):
      return AudioFileMessage.notPlayable(name: name, format: format, detail: detail)
    case .unsupportedCodec(let name, let codec):
      return AudioFileMessage.unsupportedCodec(name: name, codec: codec)
    case .decodeFailed(let name, let at, let detail):
      return "\(name): decoding failed at \(String(format: "%.1f", at)) s (\(detail))"
    case .httpStatus(let url, let status):
      return "\(url): the server answered HTTP \(status)"
    case .transport(let url, let detail):
      return "\(url): \(detail)"
    case .timeout(let url, let seconds):
      return "\(url): no answer after \(Int(seconds)) s; check the network and try again"
    case .noAudioServer(let detail):
      return
        "no PulseAudio server reachable (\(detail)): start one, set PULSE_SERVER, or use --output null"
    case .outputFailed(let detail):
      return "audio output failed: \(detail)"
    case .cannotWrite(let path, let reason):
      return "cannot write \(path): \(reason)"
    case .playlist(let name, let detail):
      return "\(name): \(detail)"
    case .notSeekable(_, let reason):
      return reason
    }
  }
}
