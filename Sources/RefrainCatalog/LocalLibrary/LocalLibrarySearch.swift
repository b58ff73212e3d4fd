import Foundation
import GRDB

/// Ranked search over one table of the local index.
///
/// Candidates come from several sources, each used only when it can answer the query, and
/// results are ordered by the first source that found them:
/// 0. titles (or names) equal to the query, ignoring case;
/// 1. titles that start with the query;
/// 2. every word as a prefix within the title (`unicode61`, BM25 order);
/// 3. every word as a prefix within title, artist or album (BM25 order);
/// 4. every chunk as a substring of three characters or more (`trigram`, BM25 order);
/// 5. one- and two-character Korean, Japanese or Chinese chunks inside words (``CJKGrams``);
/// 6. `LIKE '%…%'` for short text without letters or digits.
///
/// Each source contributes at most ``candidatesPerSource`` rows (more when a deeper page is
/// asked for), so a query matching most of a 100,000-track library still answers in
/// milliseconds: exact and title-prefix matches are always complete; beyond them, a very broad
/// query ranks the first candidates of each source rather than every match.
enum LocalLibrarySearch {
  /// The most rows one source contributes to the first pages.
  static let candidatesPerSource = 300

  /// One searchable table.
  struct Target {
    /// The content table (`local_tracks`).
    var table: String
    /// The full-text tables' name prefix (`local_track` → `local_track_words`, `…_grams`).
    var index: String
    /// The lowercased title or name column used for the exact and prefix ranks.
    var keyColumn: String
    /// The text columns, in full-text column order; the first is the title or name.
    var columns: [String]
    /// BM25 weights per text column (the title counts most), then one for `grams`.
    var weights: [Double]

    static let tracks = Target(
      table: "local_tracks", index: "local_track", keyColumn: "title_key",
      columns: ["title", "artist", "album"], weights: [10, 4, 2, 1])
    static let albums = Target(
      table: "local_albums", index: "local_album", keyColumn: "title_key",
      columns: ["title", "artist_name"], weights: [10, 4, 1])
    static let artists = Target(
      table: "local_artists", index: "local_artist", keyColumn: "key", columns: ["name"],
      weights: [2, 1])
  }

  /// The IDs of the matching rows in rank order, `limit` of them from `offset`.
  static func rankedIDs(
    _ query: LocalSearchQuery, in target: Target, offset: Int, limit: Int, db: Database
  ) throws -> [Int64] {
    let offset = max(0, offset)
    let limit = max(0, limit)
    let cap = max(candidatesPerSource, offset + limit)
    let key = target.keyColumn
    var sources = [
      "SELECT id, 0, 0.0 FROM \(target.table) WHERE \(key) = ? LIMIT \(cap)",
      "SELECT id, 1, 0.0 FROM \(target.table) WHERE \(key) >= ? AND \(key) < ? "
        + "ORDER BY \(key) LIMIT \(cap)",
    ]
    var arguments: StatementArguments = [query.key, query.key, query.keyUpperBound]

    let words = target.index + "_words"
    let grams = target.index + "_grams"
    let wordWeights = target.weights.map { String($0) }.joined(separator: ", ")
    let gramWeights = target.weights.dropLast().map { String($0) }.joined(separator: ", ")
    let fullText: [(table: String, source: Int, weights: String, pattern: String?)] = [
      (words, 2, wordWeights, query.prefixPattern(inColumn: target.columns[0])),
      (words, 3, wordWeights, query.prefixPattern),
      (grams, 4, gramWeights, query.substringPattern),
      (words, 5, wordWeights, query.gramsPattern),
    ]
    for (table, source, weights, raw) in fullText {
      // Patterns are built from quoted text, so they are valid; should SQLite still refuse
      // one, that source is left out rather than the user seeing a syntax error.
      guard let raw, let pattern = try? db.makeFTS5Pattern(rawPattern: raw, forTable: table)
      else { continue }
      sources.append(
        "SELECT rowid, \(source), bm25(\(table), \(weights)) FROM \(table) "
          + "WHERE \(table) MATCH ? LIMIT \(cap)")
      arguments += [pattern]
    }
    if let likes = query.likePatterns {
      let any =
        "(" + target.columns.map { "\($0) LIKE ? ESCAPE '\\'" }.joined(separator: " OR ") + ")"
      sources.append(
        "SELECT id, 6, 0.0 FROM \(target.table) WHERE "
          + Array(repeating: any, count: likes.count).joined(separator: " AND ")
          + " LIMIT \(cap)")
      for like in likes {
        arguments += StatementArguments(Array(repeating: like, count: target.columns.count))
      }
    }
    let union = sources.map { "SELECT * FROM (\($0))" }.joined(separator: " UNION ALL ")
    let sql = """
      WITH hits(id, source, score) AS MATERIALIZED (\(union))
      SELECT h.id FROM hits h JOIN \(target.table) t ON t.id = h.id
      GROUP BY h.id
      ORDER BY MIN(h.source * 1000000.0 + h.score), t.\(key), h.id
      LIMIT ? OFFSET ?
      """
    arguments += [limit, offset]
    return try Int64.fetchAll(db.cachedStatement(sql: sql), arguments: arguments)
  }
}
