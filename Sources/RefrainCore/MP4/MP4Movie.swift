/// What an MP4 file's `moov` box says about its sound: its track, time scale and tags.
///
/// The first sound track is kept (one in AAC first), with the movie's time scale and where
/// its iTunes tags are. Sample tables are only located here, and read by
/// ``MP4SampleTable`` when a decoder needs them.
package struct MP4Movie: Sendable {
  /// The most bytes of a small box (a header, a sample description, an edit list) read.
  static let smallBoxLimit = 1 << 20

  /// The `ftyp` box's major brand (`M4A `, `isom`, `mp42`).
  package var brand: FourCC
  /// The movie's time scale (`mvhd`): units per second of edit-list segment durations.
  package var timescale: UInt32
  /// The first sound track, preferring one in AAC; `nil` when there is none.
  package var audio: MP4AudioTrack?
  /// Whether the movie is fragmented (`mvex`): its samples are in `moof` boxes, which
  /// Refrain does not read.
  package var isFragmented: Bool
  /// The `ilst` box of iTunes-style tags, when there is one.
  package var tags: MP4Box?

  /// Reads the movie of the file in `reader`.
  ///
  /// Throws ``MP4Error/notMP4`` when it does not start with `ftyp`,
  /// ``MP4Error/cutShort(_:)`` when it has no whole `moov` box, and the error of a damaged
  /// track when no track holds sound. Damaged tags are left out, never thrown.
  package static func read(from reader: MP4BoxReader) throws(MP4Error) -> MP4Movie {
    let top = try reader.topLevelBoxes()
    guard let ftyp = top.first, ftyp.type == "ftyp" else { throw .notMP4 }
    var brandFields = MP4Fields(try reader.payload(of: ftyp, limit: 4096), box: "ftyp")
    let brand = FourCC(rawValue: try brandFields.uint32())
    guard let moov = top.first(where: { $0.type == "moov" }) else {
      if let last = top.last, last.end > reader.source.length {
        throw .cutShort("its \(last.type) box runs past the end, and there is no moov box")
      }
      throw .damaged("it has no moov box")
    }
    guard moov.end <= reader.source.length else {
      throw .cutShort("it ends inside its moov box")
    }
    var movie = MP4Movie(
      brand: brand, timescale: 0, audio: nil, isFragmented: false, tags: nil)
    var tracks: [MP4AudioTrack] = []
    var trackError: MP4Error?
    for box in try reader.children(of: moov) {
      switch box.type {
      case "mvhd":
        var fields = MP4Fields(try reader.payload(of: box, limit: smallBoxLimit), box: "mvhd")
        let version = try fields.uint8()
        try fields.skip(3 + (version == 1 ? 16 : 8))
        movie.timescale = try fields.uint32()
      case "trak":
        // A damaged track counts only when no other track holds sound.
        do {
          if let track = try MP4AudioTrack.read(trak: box, from: reader) { tracks.append(track) }
        } catch {
          if case .unreadable = error { throw error }
          trackError = trackError ?? error
        }
      case "mvex":
        movie.isFragmented = true
      case "udta", "meta":
        // Damaged tags never cost the sound: they are simply not there.
        guard movie.tags == nil else { break }
        do {
          let meta = box.type == "meta" ? box : try reader.child("meta", of: box)
          if let meta { movie.tags = try tagList(in: meta, from: reader) }
        } catch {
          if case .unreadable = error { throw error }
        }
      default:
        break
      }
    }
    movie.audio = tracks.first { $0.codec == .aac } ?? tracks.first
    if movie.audio == nil, let trackError { throw trackError }
    return movie
  }

  /// The `ilst` inside a `meta` box, which is a full box in MP4 files and a plain one in
  /// QuickTime files: whichever way its children parse.
  private static func tagList(in meta: MP4Box, from reader: MP4BoxReader) throws(MP4Error)
    -> MP4Box?
  {
    let start = try reader.source.read(at: meta.payloadOffset, count: 8)
    let plain =
      start.count == 8
      && FourCC(rawValue: start[4..<8].reduce(0) { $0 << 8 | UInt32($1) }) == "hdlr"
    return try reader.child("ilst", of: meta, skipping: plain ? 0 : 4)
  }

  /// The sound's length in seconds without decoding, as a decoder will report it: the
  /// edit list's segment when there is one, else the gapless length iTunes stores
  /// (`iTunSMPB`), else the track's media duration.
  package func duration(iTunSMPB: String?) -> Double? {
    guard let audio, audio.timescale > 0 else { return nil }
    let gapless = audio.gapless(
      movieTimescale: timescale, outputRate: Int(audio.timescale), iTunSMPB: iTunSMPB)
    return Double(gapless.length) / Double(audio.timescale)
  }
}

/// One sound track of an MP4 file: its codec and decoder configuration, its time scale
/// and edit list, and where its sample table is.
package struct MP4AudioTrack: Sendable {
  /// The codecs an MP4 sound track can hold, as far as Refrain tells them apart.
  package enum Codec: Sendable, Equatable, CustomStringConvertible {
    /// MPEG-4 AAC (`mp4a` with object type 0x40, or MPEG-2 AAC 0x66–0x68).
    case aac
    /// Apple Lossless (`alac`).
    case alac
    /// Anything else, with a name for messages ("MP3", "AC-3", "`ulaw`").
    case other(String)

    package var description: String {
      switch self {
      case .aac: return "AAC"
      case .alac: return "ALAC"
      case .other(let name): return name
      }
    }
  }

  /// The codec.
  package var codec: Codec
  /// The sample entry's channel count.
  package var channels: Int
  /// The sample entry's sample rate (its integer part).
  package var sampleRate: Int
  /// The AAC AudioSpecificConfig from `esds`; empty for other codecs.
  package var decoderConfig: [UInt8]
  /// The media's time scale (`mdhd`): units per second of sample durations.
  package var timescale: UInt32
  /// The media's duration in its time scale (`mdhd`).
  package var mediaDuration: UInt64
  /// The edit list (`elst`), in order.
  package var edits: [MP4Edit]
  /// The sample table (`stbl`) box.
  package var sampleTable: MP4Box

  /// The track in `trak`, or `nil` when it is not a sound track.
  static func read(trak: MP4Box, from reader: MP4BoxReader) throws(MP4Error) -> MP4AudioTrack? {
    guard let mdia = try reader.child("mdia", of: trak),
      let hdlr = try reader.child("hdlr", of: mdia)
    else { return nil }
    var handler = MP4Fields(
      try reader.payload(of: hdlr, limit: MP4Movie.smallBoxLimit), box: "hdlr")
    try handler.skip(8)
    guard try handler.uint32() == FourCC("soun").rawValue else { return nil }
    guard let mdhd = try reader.child("mdhd", of: mdia) else {
      throw .damaged("its sound track has no mdhd box")
    }
    var header = MP4Fields(try reader.payload(of: mdhd, limit: MP4Movie.smallBoxLimit), box: "mdhd")
    let version = try header.uint8()
    try header.skip(3 + (version == 1 ? 16 : 8))
    let timescale = try header.uint32()
    let duration = version == 1 ? try header.uint64() : UInt64(try header.uint32())
    guard let stbl = try reader.descendant(["minf", "stbl"], of: mdia),
      let stsd = try reader.child("stsd", of: stbl)
    else { throw .damaged("its sound track has no sample table") }
    var track = try sampleEntry(in: stsd, from: reader)
    track.timescale = timescale
    track.mediaDuration = duration
    track.sampleTable = stbl
    if let elst = try reader.descendant(["edts", "elst"], of: trak) {
      track.edits = try MP4Edit.list(
        MP4Fields(try reader.payload(of: elst, limit: MP4Movie.smallBoxLimit), box: "elst"))
    }
    return track
  }

  /// The codec and format of the first sample description in `stsd`.
  private static func sampleEntry(in stsd: MP4Box, from reader: MP4BoxReader) throws(MP4Error)
    -> MP4AudioTrack
  {
    guard let entry = try reader.children(of: stsd, skipping: 8).first else {
      throw .damaged("its sound track has no sample description")
    }
    // SampleEntry (8 bytes) then QuickTime's sound description: version, revision, vendor,
    // channels, sample size, compression id, packet size, rate (16.16).
    let fixed = try reader.source.read(at: entry.payloadOffset, count: 28)
    var fields = MP4Fields(fixed, box: entry.type)
    try fields.skip(8)
    let version = try fields.uint16()
    try fields.skip(6)
    let channels = Int(try fields.uint16())
    try fields.skip(6)
    let rate = Int(try fields.uint32() >> 16)
    // QuickTime sound description versions 1 and 2 add 16 and 36 bytes of fields.
    let skip: UInt64 = version == 1 ? 44 : version == 2 ? 64 : 28
    var track = MP4AudioTrack(
      codec: .other("`\(entry.type)`"), channels: channels, sampleRate: rate, decoderConfig: [],
      timescale: 0, mediaDuration: 0, edits: [], sampleTable: stsd)
    switch entry.type {
    case "mp4a":
      guard entry.payloadSize >= skip else {
        throw .damaged("its mp4a box is shorter than its fields")
      }
      let children = try reader.children(of: entry, skipping: skip)
      var esds = children.first { $0.type == "esds" }
      if esds == nil, let wave = children.first(where: { $0.type == "wave" }) {
        esds = try reader.child("esds", of: wave)
      }
      guard let esds else { throw .damaged("its mp4a box has no esds box") }
      let descriptor = try MP4ElementaryStream(
        MP4Fields(try reader.payload(of: esds, limit: MP4Movie.smallBoxLimit), box: "esds"))
      track.codec = descriptor.codec
      track.decoderConfig = descriptor.decoderConfig
    case "alac":
      track.codec = .alac
    case "ac-3":
      track.codec = .other("AC-3")
    case "ec-3":
      track.codec = .other("E-AC-3")
    case "Opus":
      track.codec = .other("Opus")
    case "fLaC":
      track.codec = .other("FLAC")
    case ".mp3":
      track.codec = .other("MP3")
    default:
      break
    }
    return track
  }

  /// Where the sound starts and how long it is, in samples at `outputRate` (the decoder's
  /// rate, which may be twice the time scale for HE-AAC): from the edit list when it trims
  /// anything, else from `iTunSMPB` (iTunes' encoder delay, padding and length), else the
  /// whole media.
  ///
  /// An edit list's segment duration is in the movie's time scale, often milliseconds;
  /// when it agrees with the media's own end within that precision, the media's end
  /// (exact to the sample) is used.
  package func gapless(movieTimescale: UInt32, outputRate: Int, iTunSMPB: String?) -> MP4Gapless {
    let scale = { (units: UInt64, from: UInt32) -> Int64 in
      guard from > 0 else { return 0 }
      let (product, overflow) = units.multipliedReportingOverflow(by: UInt64(max(0, outputRate)))
      return overflow ? Int64.max / 2 : Int64(min(product / UInt64(from), UInt64(Int64.max / 2)))
    }
    let media = scale(mediaDuration, timescale)
    if let edit = edits.first(where: { $0.mediaTime >= 0 }) {
      let delay = min(scale(UInt64(edit.mediaTime), timescale), media)
      var length = media - delay
      if movieTimescale > 0, edit.segmentDuration > 0 {
        let segment = scale(edit.segmentDuration, movieTimescale)
        let precision = scale(1, movieTimescale) + 1
        if segment < length - precision { length = segment }
      }
      if delay > 0 || length < media {
        return MP4Gapless(delay: delay, length: length, source: .editList)
      }
    }
    if let smpb = iTunSMPB.flatMap(MP4Gapless.init(iTunSMPB:)) {
      return smpb
    }
    return MP4Gapless(delay: 0, length: media, source: .none)
  }
}

/// One entry of an edit list: a segment of the media played in the movie.
package struct MP4Edit: Sendable, Equatable {
  /// The segment's duration in the movie's time scale.
  package var segmentDuration: UInt64
  /// Where in the media the segment starts, in the media's time scale; -1 for an empty
  /// edit (silence).
  package var mediaTime: Int64

  /// The entries of an `elst` box.
  static func list(_ box: MP4Fields) throws(MP4Error) -> [MP4Edit] {
    var fields = box
    let version = try fields.uint8()
    try fields.skip(3)
    let count = Int(try fields.uint32())
    let entrySize = version == 1 ? 20 : 12
    guard count <= fields.remaining / entrySize else {
      throw .damaged("its elst box lists more edits than it holds")
    }
    var edits: [MP4Edit] = []
    for _ in 0..<count {
      let duration = try fields.uint(version == 1 ? 8 : 4)
      let raw = try fields.uint(version == 1 ? 8 : 4)
      let time = version == 1 ? Int64(bitPattern: raw) : Int64(Int32(bitPattern: UInt32(raw)))
      try fields.skip(4)
      edits.append(MP4Edit(segmentDuration: duration, mediaTime: time))
    }
    return edits
  }
}

/// Where a track's sound starts in its decoded samples and how long it is.
package struct MP4Gapless: Sendable, Equatable {
  /// Where the numbers come from.
  package enum Source: Sendable, Equatable {
    /// The edit list (`elst`).
    case editList
    /// iTunes' `iTunSMPB` tag.
    case iTunSMPB
    /// Neither: the whole media plays.
    case none
  }

  /// Decoded samples to drop at the start (the encoder's delay).
  package var delay: Int64
  /// Samples of sound after the delay; what follows is the encoder's padding.
  package var length: Int64
  /// Where the numbers come from.
  package var source: Source

  /// The numbers of an `iTunSMPB` value (" 00000000 00000840 000001CA 00000000003F31F6 …":
  /// hexadecimal fields, the second the delay, the fourth the length); `nil` when it is
  /// not one.
  package init?(iTunSMPB text: String) {
    let fields = text.split(separator: " ")
    guard fields.count >= 4, let delay = Int64(fields[1], radix: 16),
      let length = Int64(fields[3], radix: 16), delay >= 0, length > 0
    else { return nil }
    self.init(delay: delay, length: length, source: .iTunSMPB)
  }

  /// The numbers given.
  package init(delay: Int64, length: Int64, source: Source) {
    self.delay = delay
    self.length = length
    self.source = source
  }
}

/// The parts of an `esds` box's elementary stream descriptor Refrain needs: which MPEG
/// audio it holds and its decoder configuration.
struct MP4ElementaryStream {
  /// The codec (object type 0x40 and 0x66–0x68 are AAC, 0x69 and 0x6B MP3).
  var codec: MP4AudioTrack.Codec
  /// The DecoderSpecificInfo: for AAC, the AudioSpecificConfig.
  var decoderConfig: [UInt8]

  /// Reads the ES_Descriptor (tag 3), its DecoderConfigDescriptor (tag 4) and that one's
  /// DecoderSpecificInfo (tag 5) from an `esds` box's contents.
  init(_ box: MP4Fields) throws(MP4Error) {
    var fields = box
    try fields.skip(4)  // Version and flags.
    guard try Self.descriptor(&fields).tag == 3 else {
      throw .damaged("its esds box has no ES descriptor")
    }
    try fields.skip(2)  // ES_ID.
    let flags = try fields.uint8()
    if flags & 0x80 != 0 { try fields.skip(2) }  // dependsOn_ES_ID.
    if flags & 0x40 != 0 { try fields.skip(Int(try fields.uint8())) }  // URL.
    if flags & 0x20 != 0 { try fields.skip(2) }  // OCR_ES_ID.
    guard try Self.descriptor(&fields).tag == 4 else {
      throw .damaged("its esds box has no decoder configuration")
    }
    let objectType = try fields.uint8()
    try fields.skip(12)  // Stream type, buffer size, bit rates.
    switch objectType {
    case 0x40, 0x66, 0x67, 0x68: codec = .aac
    case 0x69, 0x6B: codec = .other("MP3")
    case 0xA5: codec = .other("AC-3")
    case 0xA6: codec = .other("E-AC-3")
    case 0xA9, 0xAA, 0xAB, 0xAC: codec = .other("DTS")
    case 0xAD: codec = .other("Opus")
    default: codec = .other("MPEG-4 object type 0x\(String(objectType, radix: 16))")
    }
    decoderConfig = []
    if fields.remaining > 0 {
      let (tag, length) = try Self.descriptor(&fields)
      if tag == 5 { decoderConfig = Array(try fields.take(length)) }
    }
  }

  /// Reads a descriptor's tag and length (1–4 bytes of 7 bits), leaving the fields at its
  /// contents.
  private static func descriptor(_ fields: inout MP4Fields) throws(MP4Error) -> (
    tag: UInt8, length: Int
  ) {
    let tag = try fields.uint8()
    var length = 0
    for _ in 0..<4 {
      let byte = try fields.uint8()
      length = length << 7 | Int(byte & 0x7F)
      if byte & 0x80 == 0 { break }
    }
    return (tag, length)
  }
}
