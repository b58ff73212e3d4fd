/// Why a scan left a file with an audio name out of the library, in words a user knows.
///
/// Every file a scan finds under an audio name (``FolderWalker``'s extensions) is either
/// indexed or skipped for one of these reasons, and the scan reports it: none is left out
/// silently. Other files (pictures, `.lrc`, text) are not audio and are not reported.
public enum ScanSkipReason: Sendable, Hashable, Comparable, CustomStringConvertible {
  /// Audio in a format Refrain does not decode, named as the decoders name it ("DSD").
  case unsupportedFormat(String)
  /// The file could not be opened or read: the system's reason, in lower case
  /// ("permission denied"), or "not a regular file".
  case unreadable(String)
  /// The file holds no bytes.
  case empty
  /// No audio format starts the file, and no MP3 frames were found in it.
  case notAudio
  /// The file starts as a format Refrain reads, but its headers are broken or cut short.
  case damaged
  /// A tag reader gave up for a reason it did not classify (also a failure stored by an
  /// older Refrain).
  case other

  /// The reason as the scan report prints it: "unsupported format (DSD)".
  public var description: String {
    switch self {
    case .unsupportedFormat(let format): return "unsupported format (\(format))"
    case .unreadable(let why): return "unreadable (\(why))"
    case .empty: return "empty file"
    case .notAudio: return "not audio"
    case .damaged: return "damaged"
    case .other: return "could not be read"
    }
  }

  /// The reason a report line names (``description``) parsed back; `nil` for other text.
  public init?(_ text: String) {
    func inner(_ prefix: String) -> String? {
      guard text.hasPrefix(prefix + " ("), text.hasSuffix(")") else { return nil }
      return String(text.dropFirst(prefix.count + 2).dropLast())
    }
    if let format = inner("unsupported format") {
      self = .unsupportedFormat(format)
    } else if let why = inner("unreadable") {
      self = .unreadable(why)
    } else if let known = [ScanSkipReason.empty, .notAudio, .damaged, .other].first(where: {
      $0.description == text
    }) {
      self = known
    } else {
      return nil
    }
  }

  /// An `errno` description as a reason: "Permission denied" → "permission denied".
  public static func unreadable(systemMessage: String) -> ScanSkipReason {
    .unreadable(systemMessage.prefix(1).lowercased() + systemMessage.dropFirst())
  }

  /// The order reasons are reported in: what a user can act on first.
  private var rank: Int {
    switch self {
    case .unsupportedFormat: return 0
    case .unreadable: return 1
    case .damaged: return 2
    case .notAudio: return 3
    case .empty: return 4
    case .other: return 5
    }
  }

  public static func < (lhs: ScanSkipReason, rhs: ScanSkipReason) -> Bool {
    (lhs.rank, lhs.description) < (rhs.rank, rhs.description)
  }
}

/// A file a scan left out of the library: where it is, why, and the sentence that says so.
public struct SkippedFile: Sendable, Hashable {
  /// The absolute path.
  public var path: String
  /// Why it was skipped.
  public var reason: ScanSkipReason
  /// The reader's or decoder's sentence, naming the file
  /// ("/m/a.dsf holds DSD audio, which Refrain cannot decode yet: …").
  public var message: String

  /// Creates a value; a `message` that does not name the file gets its path in front.
  public init(path: String, reason: ScanSkipReason, message: String) {
    self.path = path
    self.reason = reason
    self.message = message.contains(path) ? message : "\(path): \(message)"
  }

  /// The text stored in `local_scan_failures.reason`: the reason, a tab, the message.
  package var stored: String { "\(reason)\t\(message)" }

  /// A stored failure read back; text without a known reason (written by an older Refrain)
  /// becomes ``ScanSkipReason/other`` with the text as its message.
  package init(path: String, stored: String) {
    if let tab = stored.firstIndex(of: "\t"),
      let reason = ScanSkipReason(String(stored[..<tab]))
    {
      self.init(path: path, reason: reason, message: String(stored[stored.index(after: tab)...]))
    } else {
      self.init(path: path, reason: .other, message: stored)
    }
  }
}
