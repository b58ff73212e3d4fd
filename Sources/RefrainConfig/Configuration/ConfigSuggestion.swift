/// Suggests the known key a misspelt one was probably meant to be.
enum ConfigSuggestion {
  /// The candidate within two edits of `word` (ignoring case), the closest first; or `nil`.
  static func closest(to word: String, among candidates: [String]) -> String? {
    let target = Array(word.lowercased().unicodeScalars.prefix(64))
    var best: (candidate: String, distance: Int)?
    for candidate in candidates {
      let distance = editDistance(target, Array(candidate.lowercased().unicodeScalars))
      if distance <= 2, distance < (best?.distance ?? Int.max) {
        best = (candidate, distance)
      }
    }
    return best?.candidate
  }

  /// The Levenshtein distance between two scalar arrays.
  static func editDistance(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar]) -> Int {
    guard !a.isEmpty else { return b.count }
    guard !b.isEmpty else { return a.count }
    var previous = Array(0...b.count)
    var current = [Int](repeating: 0, count: b.count + 1)
    for i in 1...a.count {
      current[0] = i
      for j in 1...b.count {
        let substitution = previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)
        current[j] = min(previous[j] + 1, current[j - 1] + 1, substitution)
      }
      swap(&previous, &current)
    }
    return previous[b.count]
  }
}
