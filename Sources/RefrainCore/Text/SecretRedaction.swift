import Foundation

/// Takes secrets out of text before it is shown or kept: every URL in the text loses the
/// values of its credential parameters (`t`, `s`, `p`, `apiKey`, `api_key`, `token`,
/// `password`, `sig`) and its user info's password, each replaced by `REDACTED`.
///
/// It guarantees that the text is otherwise unchanged (the rest of each URL included, so a
/// user still sees which server and which song), and that redacting twice changes nothing.
public enum SecretRedaction {
  /// The query parameters whose values are secrets, compared without case.
  public static let secretParameters: Set<String> = [
    "t", "s", "p", "apikey", "api_key", "token", "password", "sig", "access_token",
  ]
  /// What a secret value becomes.
  public static let mark = "REDACTED"

  /// `text` with every URL's secrets replaced by ``mark``.
  public static func redacting(_ text: String) -> String {
    guard text.contains("://") else { return text }
    var result = ""
    var rest = Substring(text)
    while let start = urlStart(in: rest) {
      result += rest[..<start]
      let end =
        rest[start...].firstIndex(where: { $0.isWhitespace || "\"'<>`".contains($0) })
        ?? rest.endIndex
      result += redactingURL(String(rest[start..<end]))
      rest = rest[end...]
    }
    return result + rest
  }

  /// Where the next `http://`, `https://`, `ws://` or `wss://` URL starts.
  private static func urlStart(in text: Substring) -> Substring.Index? {
    var search = text.startIndex
    while let found = text[search...].range(of: "://") {
      var start = found.lowerBound
      while start > text.startIndex, text[text.index(before: start)].isLetter {
        start = text.index(before: start)
      }
      let scheme = text[start..<found.lowerBound].lowercased()
      if ["http", "https", "ws", "wss"].contains(scheme) { return start }
      search = found.upperBound
    }
    return nil
  }

  /// One URL with its secrets replaced, by hand so nothing else in it is re-encoded.
  private static func redactingURL(_ url: String) -> String {
    var url = url
    // User info: `scheme://user:password@host` keeps the user.
    if let schemeEnd = url.range(of: "://") {
      let authorityEnd =
        url[schemeEnd.upperBound...].firstIndex(where: { "/?#".contains($0) }) ?? url.endIndex
      let authority = url[schemeEnd.upperBound..<authorityEnd]
      if let at = authority.lastIndex(of: "@"), let colon = authority[..<at].firstIndex(of: ":") {
        url.replaceSubrange(authority.index(after: colon)..<at, with: mark)
      }
    }
    guard let question = url.firstIndex(of: "?") else { return url }
    let fragmentStart = url[question...].firstIndex(of: "#") ?? url.endIndex
    let pairs = url[url.index(after: question)..<fragmentStart].split(
      separator: "&", omittingEmptySubsequences: false)
    let redacted = pairs.map { pair -> String in
      guard let equals = pair.firstIndex(of: "=") else { return String(pair) }
      let name = pair[..<equals].lowercased()
      return secretParameters.contains(name) ? "\(pair[...equals])\(mark)" : String(pair)
    }
    return String(url[...question]) + redacted.joined(separator: "&") + url[fragmentStart...]
  }
}
