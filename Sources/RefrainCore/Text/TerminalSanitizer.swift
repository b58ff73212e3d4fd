/// Makes text from catalogs, tags, file names and lyrics safe to show in a terminal.
///
/// A hostile title must not be able to move the cursor, change colours, set the window
/// title or write the clipboard (OSC 52). Everything that is not printable text goes:
/// C0 and C1 controls, DEL, whole ESC/CSI/OSC/DCS sequences, and bidi overrides.
public enum TerminalSanitizer {
  /// The text with every control character and escape sequence removed.
  ///
  /// Tabs and newlines become single spaces, so one string is always one line.
  public static func clean(_ text: String) -> String {
    var out = String.UnicodeScalarView()
    var scalars = text.unicodeScalars.makeIterator()
    var pending: Unicode.Scalar? = nil
    while let scalar = pending ?? scalars.next() {
      pending = nil
      switch scalar.value {
      case 0x1B:
        pending = skipEscape(&scalars)
      case 0x9B:
        pending = skipCSI(&scalars)
      case 0x90, 0x9D, 0x9E, 0x9F, 0x98:
        pending = skipString(&scalars)
      case 0x09, 0x0A, 0x0D:
        if out.last != " " { out.append(" ") }
      case 0x00...0x1F, 0x7F...0x9F:
        continue
      case 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069, 0x061C:
        continue  // bidi marks, embeddings, overrides and isolates
      case 0xFFF9...0xFFFB, 0xFEFF:
        continue  // interlinear annotations and stray byte-order marks
      default:
        out.append(scalar)
      }
    }
    return String(out)
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
