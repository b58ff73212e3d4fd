import CGcrypt

/// SHA-256 and MD5 from libgcrypt, which libpulse already loads.
package enum Digests {
  /// The digest of `bytes` into `output` (32 bytes for SHA-256, 16 for MD5).
  package static func hash(_ algorithm: gcry_md_algos, _ bytes: [UInt8], into output: inout [UInt8]) {
    _ = ready
    output.withUnsafeMutableBytes { out in
      bytes.withUnsafeBytes { input in
        gcry_md_hash_buffer(
          Int32(algorithm.rawValue), out.baseAddress, input.baseAddress, input.count)
      }
    }
  }

  /// SHA-256 of `bytes`.
  package static func sha256(_ bytes: [UInt8]) -> [UInt8] {
    var digest = [UInt8](repeating: 0, count: 32)
    hash(GCRY_MD_SHA256, bytes, into: &digest)
    return digest
  }

  /// MD5 of `bytes`.
  package static func md5(_ bytes: [UInt8]) -> [UInt8] {
    var digest = [UInt8](repeating: 0, count: 16)
    hash(GCRY_MD_MD5, bytes, into: &digest)
    return digest
  }

  /// libgcrypt asks to be initialised (gcry_check_version) before its first use; done once.
  private static let ready: Bool = {
    _ = gcry_check_version(nil)
    return true
  }()
}
