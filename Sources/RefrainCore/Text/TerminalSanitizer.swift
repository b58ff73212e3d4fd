/// Makes text from catalogs, tags, file names and lyrics safe to show in a terminal.
///
/// A hostile title must not be able to move the cursor, change colours, set the window
/// title or write the clipboard (OSC 52). Everything that is not printable text goes:
/// C0 and C1 controls, DEL, whole ESC/CSI/OSC/DCS sequences, and bidi overrides. This is the
/// one cleaner: the screen's grid, every line a command prints (``Console``) and the room
/// server's names go through it.
public enum TerminalSanitizer {
  /// The text with every control character and escape sequence removed.
  ///
  /// Tabs and newlines become single spaces, so one string is always one line.
  public static func clean(_ text: String) -> String {
    clean(text, keepingLines: false)
  }

  /// The text with every control character and escape sequence removed, but its newlines
  /// and tabs kept (CRLF and a lone CR become a newline), so a multi-line text such as a
  /// lyrics timeline keeps its layout.
  public static func cleanKeepingLines(_ text: String) -> String {
    clean(text, keepingLines: true)
  }

  /// The one cleaning loop; without `keepingLines`, tabs and line breaks become single spaces.
  private static func clean(_ text: String, keepingLines: Bool) -> String {
    var out = String.UnicodeScalarView()
    var scalars = text.unicodeScalars.makeIterator()
    var pending: Unicode.Scalar? = nil
    /// Whether the scalar before this one was a CR turned into a newline (CRLF is one break).
    var previousWasCR = false
    while let scalar = pending ?? scalars.next() {
      pending = nil
      defer { if scalar.value != 0x0D { previousWasCR = false } }
      switch scalar.value {
      case 0x1B:
        pending = skipEscape(&scalars)
      case 0x9B:
        pending = skipCSI(&scalars)
      case 0x90, 0x9D, 0x9E, 0x9F, 0x98:
        pending = skipString(&scalars)
      case 0x09 where keepingLines:
        out.append(scalar)
      case 0x0A where keepingLines:
        if !previousWasCR { out.append("\n") }
      case 0x0D where keepingLines:
        out.append("\n")
        previousWasCR = true
      case 0x09, 0x0A, 0x0D:
        if out.last != " " { out.append(" ") }
      default:
        if !isControl(scalar) { out.append(scalar) }
      }
    }
    return String(out)
  }

  /// Whether `scalar` is one that ``clean(_:)`` removes wherever it stands: a C0 or C1
  /// control, DEL, a bidi mark, embedding, override or isolate (U+200E, U+200F,
  /// U+202A–U+202E, U+2066–U+2069, U+061C), an interlinear annotation or a byte-order mark.
  /// ``JSONOutput`` writes these as `\uXXXX`.
  public static func isControl(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.value {
    case 0x00...0x1F, 0x7F...0x9F: return true
    case 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069, 0x061C: return true
    case 0xFFF9...0xFFFB, 0xFEFF: return true
    default: return false
    }
  }

  /// Skips what follows an ESC; returns a scalar read too far, if any.
  private static func skipEscape(_ scalars: inout String.UnicodeScalarView.Iterator)
    -> Unicode.Scalar?
  {
    guard let next = scalars.next() else { return nil }
    switch next {
    case "[": return skipCSI(&scalars)
    case "]", "P", "X", "^", "_": return skipString(&scalars)
    case " "..."/":
      // nF sequences: intermediates, then one final byte.
      while let scalar = scalars.next() {
        if !(" "..."/").contains(scalar) { return nil }
      }
      return nil
    default:
      return nil  // a two-character sequence such as ESC c or ESC 7
    }
  }

  /// Skips a CSI sequence: parameters and intermediates up to a final byte in @…~.
  private static func skipCSI(_ scalars: inout String.UnicodeScalarView.Iterator)
    -> Unicode.Scalar?
  {
    while let scalar = scalars.next() {
      if ("@"..."~").contains(scalar) { return nil }
      if !(" "..."?").contains(scalar) { return scalar }  // malformed: stop here
    }
    return nil
  }

  /// Skips an OSC/DCS/PM/APC string up to BEL, ST (ESC \) or C1 ST.
  private static func skipString(_ scalars: inout String.UnicodeScalarView.Iterator)
    -> Unicode.Scalar?
  {
    while let scalar = scalars.next() {
      switch scalar.value {
      case 0x07, 0x9C: return nil
      case 0x1B:
        let next = scalars.next()
        return next == "\\" ? nil : next
      default: continue
      }
    }
    return nil
  }
}
