/// Synced lines grouped by timestamp: the first line of a group is the original, and the
/// lines after it with the same time are its translations, as LRC files carry them.
///
/// A later line of a group whose text is the same as one before it (a line repeated by
/// mistake, or a chorus stamped twice at the same time) is a duplicate, not a translation:
/// it is hidden. An empty line never translates anything. Plain lyrics have no groups:
/// every line stands alone. Lines must be in time order, as ``LyricTimeline/lines`` are.
public struct LyricGroups: Sendable, Equatable {
  /// What a line is within its group.
  public enum Role: Sendable, Equatable {
    /// The first line of its time, or a line of plain lyrics.
    case original
    /// A later line with the same time and different text.
    case translation
    /// A later line with the same time and the same text as one before it.
    case duplicate
  }

  /// Each line's role.
  public let roles: [Role]
  /// Each line's group: the index of the original it belongs to.
  public let leaders: [Int]

  /// Groups `lines`; `synced` is false for plain lyrics.
  public init(lines: [LyricLine], synced: Bool) {
    var roles: [Role] = []
    var leaders: [Int] = []
    roles.reserveCapacity(lines.count)
    leaders.reserveCapacity(lines.count)
    var leader = 0
    var seen: Set<String> = []
    for (index, line) in lines.enumerated() {
      let key = Self.key(line.text)
      if synced, index > 0, line.ms == lines[leader].ms, !lines[leader].text.isEmpty {
        leaders.append(leader)
        if seen.contains(key) || key.isEmpty {
          roles.append(.duplicate)
        } else {
          seen.insert(key)
          roles.append(.translation)
        }
      } else {
        leader = index
        seen = [key]
        leaders.append(index)
        roles.append(.original)
      }
    }
    self.roles = roles
    self.leaders = leaders
  }

  /// The original of the group `line` belongs to (itself for an original).
  public func leader(of line: Int) -> Int {
    leaders.indices.contains(line) ? leaders[line] : line
  }

  /// Whether `line` is a translation.
  public func isTranslation(_ line: Int) -> Bool {
    roles.indices.contains(line) && roles[line] == .translation
  }

  /// The lines a reader sees, in order: originals, and translations when `translations`.
  public func visible(translations: Bool) -> [Int] {
    roles.indices.filter { index in
      switch roles[index] {
      case .original: return true
      case .translation: return translations
      case .duplicate: return false
      }
    }
  }

  /// The originals, in order: the lines a cursor moves between.
  public var originals: [Int] { roles.indices.filter { roles[$0] == .original } }

  /// Text compared without case or surrounding space.
  private static func key(_ text: String) -> String {
    text.trimmingCharacters(in: .whitespaces).lowercased()
  }
}
