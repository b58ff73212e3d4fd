import Foundation

/// Removes secrets from text before it is logged: URL queries, signatures, tokens.
///
/// Preview URLs from online catalogs carry short-lived signatures (`?hdnea=exp=…~hmac=…`),
/// and request headers carry bearer tokens. Refrain's log may be attached to a bug report,
/// so none of that may reach it. What is kept is enough to debug: the scheme, host and path
/// of every URL, and the names of the fields that were removed.
enum LogRedaction {
  /// What replaces every removed secret.
  static let placeholder = "<redacted>"

  /// `text` with URL queries and fragments, user names and passwords in URLs, bearer
  /// tokens, `name=value` secrets and long opaque tokens replaced by `<redacted>`.
  static func redact(_ text: String) -> String {
    guard !text.isEmpty else { return text }
    var result = replacing(urlPattern, in: text) { match in redactURL(match) }
    result = replacing(authorizationPattern, in: result) { match in
      "\(match[1])\(match[2])\(placeholder)"
    }
    result = replacing(bearerPattern, in: result) { match in "\(match[1]) \(placeholder)" }
    result = replacing(secretFieldPattern, in: result) { match in
      "\(match[1])\(match[2])\(placeholder)"
    }
    result = replacing(jwtPattern, in: result) { _ in placeholder }
    result = replacing(opaqueTokenPattern, in: result) { match in
      isOpaqueToken(match[0]) ? placeholder : match[0]
    }
    return result
  }

  // MARK: - Patterns

  /// A URL: a scheme, `://`, and everything up to white space or a quote.
  private static let urlPattern = pattern(#"[A-Za-z][A-Za-z0-9+.\-]*://[^\s"'<>`]+"#)

  /// `Authorization: <scheme> <credentials>`, also as `authorization=` and in JSON.
  private static let authorizationPattern = pattern(
    #"(?i)(authorization["']?\s*[:=]\s*["']?)((?:bearer|basic|token)\s+)?[^\s"',;&]+"#)

  /// `Bearer <token>` anywhere.
  private static let bearerPattern = pattern(#"(?i)\b(bearer)\s+[A-Za-z0-9._~+/=\-]+"#)

  /// `name=value`, `name = "value"` or `"name": "value"` for names that carry secrets.
  private static let secretFieldPattern = pattern(
    #"(?i)(?<![A-Za-z0-9_])(hdnea|hdntl|hdnts|exp|hmac|acl|token|listenbrainz_token|lastfm_secret|lastfm_api_key|api_sig|session_key|access_token|refresh_token|id_token|auth|sig|signature|api_key|apikey|secret|client_secret|password|passwd|sessionid|session_token|policy|key-pair-id|x-amz-signature|x-amz-credential|x-amz-security-token|x-goog-signature)(\s*=\s*"?|"\s*:\s*"?)[^\s&"',;<>]+"#
  )

  /// A JSON web token: three base64url parts, the first starting `eyJ`.
  private static let jwtPattern = pattern(
    #"eyJ[A-Za-z0-9_\-]{4,}\.[A-Za-z0-9_\-]{4,}\.[A-Za-z0-9_\-]*"#)

  /// A run of 32 or more letters and digits (checked further by ``isOpaqueToken(_:)``).
  private static let opaqueTokenPattern = pattern(
    #"(?<![A-Za-z0-9])[A-Za-z0-9]{32,}(?![A-Za-z0-9])"#)

  // MARK: - Helpers

  /// A URL without its query, fragment, user name or password.
  private static func redactURL(_ match: [String]) -> String {
    let url = match[0]
    guard let schemeEnd = url.range(of: "://") else { return url }
    var rest = url[schemeEnd.upperBound...]
    var suffix = ""
    if let cut = rest.firstIndex(where: { $0 == "?" || $0 == "#" }) {
      if rest[cut...].count > 1 { suffix = "\(rest[cut])\(placeholder)" }
      rest = rest[..<cut]
    }
    let authorityEnd = rest.firstIndex(of: "/") ?? rest.endIndex
    if let at = rest[..<authorityEnd].lastIndex(of: "@") {
      rest = rest[rest.index(after: at)...]
      return "\(url[..<schemeEnd.upperBound])\(placeholder)@\(rest)\(suffix)"
    }
    return "\(url[..<schemeEnd.upperBound])\(rest)\(suffix)"
  }

  /// Whether a long alphanumeric run looks random, mixing upper case, lower case and digits.
  ///
  /// Hex digests (cache file names) and words are kept.
  private static func isOpaqueToken(_ text: String) -> Bool {
    var upper = false
    var lower = false
    var digit = false
    for scalar in text.unicodeScalars {
      switch scalar {
      case "A"..."Z": upper = true
      case "a"..."z": lower = true
      case "0"..."9": digit = true
      default: break
      }
    }
    return upper && lower && digit
  }

  private static func pattern(_ text: String) -> NSRegularExpression? {
    try? NSRegularExpression(pattern: text)
  }

  /// `text` with every match of `expression` replaced by `replacement(groups)`, where
  /// `groups[0]` is the whole match and absent groups are empty.
  private static func replacing(
    _ expression: NSRegularExpression?, in text: String, with replacement: ([String]) -> String
  ) -> String {
    guard let expression else { return text }
    let source = text as NSString
    let matches = expression.matches(in: text, range: NSRange(location: 0, length: source.length))
    guard !matches.isEmpty else { return text }
    var result = ""
    var cursor = 0
    for match in matches {
      result += source.substring(
        with: NSRange(location: cursor, length: match.range.location - cursor))
      let groups = (0..<match.numberOfRanges).map { index -> String in
        let range = match.range(at: index)
        return range.location == NSNotFound ? "" : source.substring(with: range)
      }
      result += replacement(groups)
      cursor = match.range.location + match.range.length
    }
    result += source.substring(from: cursor)
    return result
  }
}
