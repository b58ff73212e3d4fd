import RefrainCore
import RefrainTags

extension AudioDecoders {
  /// Proves a file with its decoder for RefrainTags' ``AudioTagReader`` (`refrain scan
  /// --exact`): opens it (the MP3 decoder scans every frame), and gives its exact duration
  /// after the gapless trim. A codec without a decoder is an unsupported format; any other
  /// failure, damage; each with the decoder's sentence.
  public static let proof: DecoderProof = { path in
    do {
      let decoder = try open(path: path)
      defer { decoder.close() }
      return decoder.duration
    } catch let error as AudioError {
      if case .unsupportedCodec(_, let codec) = error {
        throw TagReadError(error.description, kind: .unsupportedFormat(codec))
      }
      throw TagReadError(error.description, kind: .damaged)
    }
  }
}
