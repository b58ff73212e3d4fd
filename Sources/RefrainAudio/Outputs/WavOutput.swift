import Foundation

/// Writes PCM to a WAV file as fast as the decoder produces it (for tests and benchmarks).
public final class WavOutput: AudioOutput {
  public let name = "wav"
  /// The file being written.
  public let path: String
  private var handle: FileHandle?
  private var format: PCMFormat?
  private var dataBytes = 0

  /// Creates an output that will write to `path` when opened.
  public init(path: String) {
    self.path = path
  }

  deinit { close() }

  public func open(_ format: PCMFormat) throws {
    if handle != nil, self.format == format { return }
    close()
    guard FileManager.default.createFile(atPath: path, contents: nil),
      let handle = FileHandle(forWritingAtPath: path)
    else {
      throw AudioError.cannotWrite(path: path, reason: "cannot create the file")
    }
    self.handle = handle
    self.format = format
    dataBytes = 0
    handle.write(Self.header(format: format, dataBytes: 0))
  }

  public func write(_ bytes: UnsafeRawBufferPointer) throws {
    guard let handle else { return }
    handle.write(Data(bytes))
    dataBytes += bytes.count
  }

  public func drop() {}

  public func drain() throws {}

  public var latency: Double { 0 }

  public func close() {
    guard let handle, let format else { return }
    handle.seek(toFileOffset: 0)
    handle.write(Self.header(format: format, dataBytes: dataBytes))
    handle.closeFile()
    self.handle = nil
  }

  /// The 44-byte RIFF header for 16-bit PCM.
  static func header(format: PCMFormat, dataBytes: Int) -> Data {
    var data = Data()
    func append(_ value: UInt32) {
      withUnsafeBytes(of: value.littleEndian) { data.append(contentsOf: $0) }
    }
    func append16(_ value: UInt16) {
      withUnsafeBytes(of: value.littleEndian) { data.append(contentsOf: $0) }
    }
    data.append(contentsOf: Array("RIFF".utf8))
    append(UInt32(36 + dataBytes))
    data.append(contentsOf: Array("WAVEfmt ".utf8))
    append(16)
    append16(1)
    append16(UInt16(format.channels))
    append(UInt32(format.sampleRate))
    append(UInt32(format.bytesPerSecond))
    append16(UInt16(format.bytesPerFrame))
    append16(16)
    data.append(contentsOf: Array("data".utf8))
    append(UInt32(dataBytes))
    return data
  }
}
