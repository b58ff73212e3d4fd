import Foundation
import RefrainCore

/// Splits an Icecast or SHOUTcast stream sent with `icy-metaint` into its audio bytes and its
/// metadata blocks, across reads of any size.
///
/// After every `interval` audio bytes comes one length byte; the metadata block that follows
/// is that byte × 16 bytes long (zero: no block). The audio that comes out is exactly the
/// stream without the length bytes and blocks, so a decoder never sees metadata.
public struct ICYDemuxer: Sendable {
  /// Audio bytes between two metadata blocks (`icy-metaint`).
  public let interval: Int
  private enum Expecting: Sendable {
    case audio(remaining: Int)
    case length
    case block(remaining: Int)
  }
  private var expecting: Expecting
  private var block: [UInt8] = []

  /// Starts at the first byte of a response whose `icy-metaint` is `interval` (more than 0).
  public init(interval: Int) {
    self.interval = max(1, interval)
    expecting = .audio(remaining: self.interval)
  }

  /// A metadata block's text, and how many of the audio bytes returned with it came before it.
  public struct Block: Sendable, Equatable {
    public let audioBefore: Int
    public let text: String
  }

  /// Takes the next bytes of the response; returns its audio bytes, and every non-empty
  /// metadata block that ended within them.
  public mutating func feed(_ bytes: some Collection<UInt8>) -> (audio: [UInt8], blocks: [Block]) {
    var audio: [UInt8] = []
    audio.reserveCapacity(bytes.count)
    var blocks: [Block] = []
    var rest = bytes[...]
    while !rest.isEmpty {
      switch expecting {
      case .audio(let remaining):
        let part = rest.prefix(remaining)
        audio.append(contentsOf: part)
        rest = rest.dropFirst(part.count)
        expecting = part.count == remaining ? .length : .audio(remaining: remaining - part.count)
      case .length:
        let length = Int(rest[rest.startIndex]) * 16
        rest = rest.dropFirst()
        expecting = length == 0 ? .audio(remaining: interval) : .block(remaining: length)
      case .block(let remaining):
        let part = rest.prefix(remaining)
        block.append(contentsOf: part)
        rest = rest.dropFirst(part.count)
        if part.count == remaining {
          blocks.append(Block(audioBefore: audio.count, text: Self.text(block)))
          block.removeAll(keepingCapacity: true)
          expecting = .audio(remaining: interval)
        } else {
          expecting = .block(remaining: remaining - part.count)
        }
      }
    }
    return (audio, blocks)
  }

  /// A block's text without its NUL padding: UTF-8, or Latin-1 when it is not valid UTF-8
  /// (older SHOUTcast servers).
  static func text(_ block: [UInt8]) -> String {
    var bytes = block[...]
    while let last = bytes.last, last == 0 { bytes = bytes.dropLast() }
    if let text = String(validating: bytes, as: UTF8.self) { return text }
    return String(bytes.map { Character(Unicode.Scalar($0)) })
  }

  /// The `StreamTitle` in a metadata block (`StreamTitle='Artist - Title';StreamUrl='…';`),
  /// sanitised for the terminal like every other text and trimmed; `nil` when the block has
  /// none or it is empty.
  ///
  /// The title ends at the first `';` (titles may hold a lone `'`), or at the last `'`.
  public static func streamTitle(in block: String) -> String? {
    guard let start = block.range(of: "StreamTitle='") else { return nil }
    let tail = block[start.upperBound...]
    let end = tail.range(of: "';")?.lowerBound ?? tail.lastIndex(of: "'") ?? tail.endIndex
    let title = TerminalSanitizer.clean(String(tail[..<end]))
      .trimmingCharacters(in: .whitespaces)
    return title.isEmpty ? nil : title
  }
}
