/// An audio file format Refrain knows, with its row in the one table every part that needs
/// a format reads: how its files begin, their extensions, the MIME type a room serves, the
/// Debian package of its decoder, and whether rooms share it.
///
/// The cases are in the order ``detect(head:)`` tries them: the weakest signature (MP3's
/// frame sync) last. A format is either played (it has a decoder in RefrainAudio's
/// `AudioFormat.decoder` and a tag reader in RefrainTags' `AudioFormat.tagReader`) or only
/// named, so that a scan and the player can say what a file is instead of "not audio". Both
/// mappings are exhaustive switches: a new case does not compile until it is wired.
public enum AudioFormat: String, CaseIterable, Sendable, CustomStringConvertible {
  case flac, opus, oggVorbis, wav, m4a
  /// Named, not played: DSD (`.dsf`, `.dff`), WMA, Monkey's Audio, WavPack, AIFF, Musepack,
  /// TTA, TAK and ADTS AAC (a raw `.aac` stream outside an MP4 box).
  case dsd, wma, monkeysAudio, wavPack, aiff, musepack, tta, tak, adts
  case mp3

  /// One format's row of the table.
  public struct Row: Sendable {
    /// The name messages use ("FLAC"); Vorbis and Opus are both "Ogg", their container.
    public var name: String
    /// The file extensions, lower case, without the dot; the first is the usual one.
    public var extensions: [String]
    /// The `Content-Type` a room server gives the file.
    public var mimeType: String
    /// Whether a room server shares files of this format.
    public var sharedInRooms: Bool
    /// The Debian package that builds its decoder (`nil`: Refrain's own, or none).
    public var debianPackage: String?
    /// Whether a file starting with these bytes (its first 64, or fewer) is in this format.
    public var signature: @Sendable ([UInt8]) -> Bool
  }

  /// The table: one row per format.
  public var row: Row {
    switch self {
    case .flac:
      return Row(
        name: "FLAC", extensions: ["flac"], mimeType: "audio/flac", sharedInRooms: true,
        debianPackage: "libflac-dev", signature: { Self.at($0, 0, "fLaC") })
    case .opus:
      return Row(
        name: "Ogg", extensions: ["opus"], mimeType: "audio/ogg", sharedInRooms: true,
        debianPackage: "libopusfile-dev",
        signature: { Self.at($0, 0, "OggS") && Self.oggCodec($0) == .opus })
    case .oggVorbis:
      // Any other Ogg stream too (FLAC in Ogg, Speex): its decoder says what is inside.
      return Row(
        name: "Ogg", extensions: ["ogg", "oga"], mimeType: "audio/ogg", sharedInRooms: true,
        debianPackage: "libvorbis-dev",
        signature: { Self.at($0, 0, "OggS") && Self.oggCodec($0) != .opus })
    case .wav:
      return Row(
        name: "WAV", extensions: ["wav"], mimeType: "audio/wav", sharedInRooms: true,
        debianPackage: nil,
        signature: { (Self.at($0, 0, "RIFF") || Self.at($0, 0, "RF64")) && Self.at($0, 8, "WAVE") })
    case .m4a:
      return Row(
        name: "M4A", extensions: ["m4a", "mp4"], mimeType: "audio/mp4", sharedInRooms: true,
        debianPackage: "libfaad-dev", signature: { Self.at($0, 4, "ftyp") })
    case .dsd:
      return Row(
        name: "DSD", extensions: ["dsf", "dff"], mimeType: "audio/x-dsd", sharedInRooms: false,
        debianPackage: nil, signature: { Self.at($0, 0, "DSD ") || Self.at($0, 0, "FRM8") })
    case .wma:
      return Row(
        name: "WMA", extensions: ["wma"], mimeType: "audio/x-ms-wma", sharedInRooms: false,
        debianPackage: nil, signature: { $0.starts(with: [0x30, 0x26, 0xB2, 0x75]) })
    case .monkeysAudio:
      return Row(
        name: "Monkey's Audio", extensions: ["ape"], mimeType: "audio/x-ape",
        sharedInRooms: false, debianPackage: nil, signature: { Self.at($0, 0, "MAC ") })
    case .wavPack:
      return Row(
        name: "WavPack", extensions: ["wv"], mimeType: "audio/x-wavpack", sharedInRooms: false,
        debianPackage: nil, signature: { Self.at($0, 0, "wvpk") })
    case .aiff:
      return Row(
        name: "AIFF", extensions: ["aif", "aiff"], mimeType: "audio/aiff", sharedInRooms: false,
        debianPackage: nil,
        signature: { Self.at($0, 0, "FORM") && (Self.at($0, 8, "AIFF") || Self.at($0, 8, "AIFC")) })
    case .musepack:
      return Row(
        name: "Musepack", extensions: ["mpc"], mimeType: "audio/x-musepack",
        sharedInRooms: false, debianPackage: nil,
        signature: { Self.at($0, 0, "MPCK") || Self.at($0, 0, "MP+") })
    case .tta:
      return Row(
        name: "TTA", extensions: ["tta"], mimeType: "audio/x-tta", sharedInRooms: false,
        debianPackage: nil, signature: { Self.at($0, 0, "TTA1") })
    case .tak:
      return Row(
        name: "TAK", extensions: ["tak"], mimeType: "audio/x-tak", sharedInRooms: false,
        debianPackage: nil, signature: { Self.at($0, 0, "tBaK") })
    case .adts:
      // The sync word with layer 0, which no MP3 frame has.
      return Row(
        name: "ADTS AAC", extensions: ["aac"], mimeType: "audio/aac", sharedInRooms: true,
        debianPackage: nil,
        signature: { $0.count >= 2 && $0[0] == 0xFF && $0[1] & 0xF6 == 0xF0 })
    case .mp3:
      return Row(
        name: "MP3", extensions: ["mp3"], mimeType: "audio/mpeg", sharedInRooms: true,
        debianPackage: "libmpg123-dev", signature: Self.startsMP3)
    }
  }

  public var description: String { row.name }

  /// The format whose signature `head` (a file's first bytes) matches, trying ``allCases``
  /// in order; `nil` when none does (a file with junk before its MP3 frames, or not audio).
  public static func detect(head: [UInt8]) -> AudioFormat? {
    allCases.first { $0.row.signature(head) }
  }

  /// The format whose extensions include `fileExtension` (in any case).
  public static func byExtension(_ fileExtension: String) -> AudioFormat? {
    let lower = fileExtension.lowercased()
    return allCases.first { $0.row.extensions.contains(lower) }
  }

  /// Every extension a scan indexes or reports: those of every format, played or named.
  public static let scannedExtensions: Set<String> = Set(allCases.flatMap(\.row.extensions))

  /// The extensions a room server shares.
  public static let roomExtensions: Set<String> = Set(
    allCases.filter(\.row.sharedInRooms).flatMap(\.row.extensions))

  /// Whether `head` starts an MP3 file: an ID3v2 tag, or a valid MPEG audio frame header.
  @Sendable static func startsMP3(_ head: [UInt8]) -> Bool {
    if head.starts(with: Array("ID3".utf8)) { return true }
    guard head.count >= 3, head[0] == 0xFF, head[1] & 0xE0 == 0xE0 else { return false }
    let layer = (head[1] >> 1) & 0x3
    let bitrate = head[2] >> 4
    let rate = (head[2] >> 2) & 0x3
    return layer != 0 && bitrate != 0xF && rate != 0x3
  }

  /// The codec an Ogg stream's first packet names, after the 27-byte page header and its
  /// segment table: Opus or Vorbis, or `nil` for another (or a head too short to tell).
  public static func oggCodec(_ head: [UInt8]) -> OggCodec? {
    guard head.count > 27 else { return nil }
    let start = 27 + Int(head[26])
    if head.count >= start + 8, head[start..<start + 8].elementsEqual("OpusHead".utf8) {
      return .opus
    }
    if head.count >= start + 7, head[start + 1..<start + 7].elementsEqual("vorbis".utf8) {
      return .vorbis
    }
    return nil
  }

  /// The codecs Refrain decodes inside Ogg.
  public enum OggCodec: Sendable { case vorbis, opus }

  /// Whether `head` holds `text`'s bytes at `offset`.
  private static func at(_ head: [UInt8], _ offset: Int, _ text: String) -> Bool {
    head.count >= offset + text.utf8.count
      && head[offset..<offset + text.utf8.count].elementsEqual(text.utf8)
  }
}
