import Foundation

/// The last few covers turned into cells, so a redraw, a pane switch or the next track of the
/// same album costs no decoding; holds cells only, never full images.
public final class CoverCellCache: @unchecked Sendable {
  /// What a cached cover was made for.
  public struct Key: Hashable, Sendable {
    public var albumKey: String
    public var box: CellSize
    public var colors: TerminalColors

    public init(albumKey: String, box: CellSize, colors: TerminalColors) {
      self.albumKey = albumKey
      self.box = box
      self.colors = colors
    }
  }

  /// How many covers are kept; the least recently used goes first.
  public let capacity: Int
  private let lock = NSLock()
  /// Most recently used last.
  private var entries: [(key: Key, cover: HalfBlockCover)] = []

  public init(capacity: Int = 8) {
    self.capacity = max(1, capacity)
  }

  /// The cover stored for `key`, which becomes the most recently used.
  public func cover(for key: Key) -> HalfBlockCover? {
    lock.withLock {
      guard let index = entries.firstIndex(where: { $0.key == key }) else { return nil }
      let entry = entries.remove(at: index)
      entries.append(entry)
      return entry.cover
    }
  }

  /// Stores `cover` for `key`, dropping the least recently used entry when full.
  public func insert(_ cover: HalfBlockCover, for key: Key) {
    lock.withLock {
      entries.removeAll { $0.key == key }
      entries.append((key, cover))
      if entries.count > capacity { entries.removeFirst(entries.count - capacity) }
    }
  }

  /// How many covers are stored.
  public var count: Int { lock.withLock { entries.count } }
}
