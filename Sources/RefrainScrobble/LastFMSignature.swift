import Foundation
import RefrainHTTP

/// Last.fm's request signature (`api_sig`): the MD5 of the signed parameters, sorted by
/// name, each written as name then value with nothing between, followed by the shared
/// secret; as 32 lowercase hex digits.
///
/// `format` and `callback` are not signed (Last.fm's authentication spec), and neither is an
/// `api_sig` already present. Names sort by their UTF-8 bytes, as Last.fm's examples do.
package enum LastFMSignature {
  /// The parameters Last.fm leaves out of the signature.
  package static let unsignedParameters: Set<String> = ["format", "callback", "api_sig"]

  /// The `api_sig` for `parameters` signed with `secret`.
  package static func sign(_ parameters: [String: String], secret: String) -> String {
    md5Hex(signatureBase(parameters, secret: secret))
  }

  /// The text that is hashed: sorted `namevalue` pairs, then the secret.
  package static func signatureBase(_ parameters: [String: String], secret: String) -> String {
    let signed = parameters.filter { !unsignedParameters.contains($0.key) }
      .sorted { Array($0.key.utf8).lexicographicallyPrecedes(Array($1.key.utf8)) }
    return signed.map { $0.key + $0.value }.joined() + secret
  }

  /// The MD5 of `text`'s UTF-8 bytes as 32 lowercase hex digits (libgcrypt's digest).
  package static func md5Hex(_ text: String) -> String {
    let digest = Digests.md5(Array(text.utf8))
    let hex = Array("0123456789abcdef".utf8)
    var text: [UInt8] = []
    text.reserveCapacity(32)
    for byte in digest {
      text.append(hex[Int(byte >> 4)])
      text.append(hex[Int(byte & 0xF)])
    }
    return String(decoding: text, as: UTF8.self)
  }
}
