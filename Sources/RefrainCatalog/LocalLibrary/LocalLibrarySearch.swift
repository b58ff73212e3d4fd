import Foundation
import GRDB

/// Ranked search over one table of the local index.
///
/// Results come in tiers, each a query of its own, and a tier runs only when the tiers before
/// it did not fill the page:
/// 0. titles (or names) equal to the query, ignoring case;
/// 1. titles that start with the query, alphabetically;
/// 2. every word as a prefix within the title (`unicode61`), shortest title first (what BM25
///    gives for one column);
/// 3. every word as a prefix within title, artist or album, by BM25 (the title weighs most);
/// 4. every chunk as a substring of three characters or more (`trigram`), by BM25;
/// 5. one- and two-character Korean, Japanese or Chinese chunks inside words (``CJKGrams``);
/// 6. `LIKE '%…%'` for short text without letters or digits.
///
/// A broad query is answered by the first tiers from indexes alone. Tiers 2–6 each consider
/// at most ``candidatesPerSource`` matches (more for deeper pages), so a query matching most
/// of a 100,000-track library still answers in milliseconds; exact and title-prefix matches
/// are always complete.
enum LocalLibrarySearch {
  /// The most matches one full-text tier ranks for the first pages.
  static let candidatesPerSource = 300

  /// The IDs of the matching rows in rank order, `limit` of them from `offset`.
  static func rankedIDs(
    _ query: LocalSearchQuery, in table: LocalSearchTable, offset: Int, limit: Int,
    db: Database
  ) throws -> [Int64] {
    let offset = max(0, offset)
    let needed = offset + max(0, limit)
    let cap = max(candidatesPerSource, needed)
    var found: [Int64] = []
    var seen = Set<Int64>()
    for tier in tiers(query, in: table, cap: cap) {
      guard found.count < needed else { break }
      guard let (sql, arguments) = try tier(needed + found.count, db) else { continue }
      for id in try Int64.fetchAll(db.cachedStatement(sql: sql), arguments: arguments)
      where seen.insert(id).inserted {
        found.append(id)
      }
    }
    guard offset < found.count else { return [] }
    return Array(found[offset..<min(found.count, needed)])
  }

  /// A tier: given how many rows may be needed, its SQL and arguments, or `nil` when the query
  /// gives it nothing to look for.
  private typealias Tier = (Int, Database) throws -> (String, StatementArguments)?

  private static func tiers(_ query: LocalSearchQuery, in table: LocalSearchTable, cap: Int)
    -> [Tier]
  {
    let key = table.keyColumn
    let byLength = "ORDER BY length(t.\(key)), t.\(key), t.id"
    let byScore = "ORDER BY h.score, t.\(key), t.id"
    let wordWeights = table.weights.map { String($0) }.joined(separator: ", ")
    let gramWeights = table.weights.dropLast().map { String($0) }.joined(separator: ", ")

    /// Up to `cap` matches of `raw` in `fts`, joined to the table and ordered.
    func fullText(_ fts: String, _ raw: String?, score: String?, order: String) -> Tier {
      { _, db in
        // Patterns are built from quoted text, so they are valid; should SQLite still refuse
        // one, the tier is skipped rather than the user seeing a syntax error.
        guard let raw, let pattern = try? db.makeFTS5Pattern(rawPattern: raw, forTable: fts)
        else { return nil }
        let scoreColumn = score.map { ", \($0) AS score" } ?? ""
        let sql = """
          SELECT t.id FROM (SELECT rowid AS id\(scoreColumn) FROM \(fts)
                            WHERE \(fts) MATCH ? LIMIT \(cap)) h
          JOIN \(table.table) t ON t.id = h.id \(order)
          """
        return (sql, [pattern])
      }
    }

    var tiers: [Tier] = [
      { limit, _ in
        ("SELECT id FROM \(table.table) WHERE \(key) = ? ORDER BY id LIMIT \(limit)", [query.key])
      },
      { limit, _ in
        (
          "SELECT id FROM \(table.table) WHERE \(key) >= ? AND \(key) < ? "
            + "ORDER BY \(key), id LIMIT \(limit)",
          [query.key, query.keyUpperBound]
        )
      },
      fullText(
        table.words, query.prefixPattern(inColumn: table.columns[0]), score: nil, order: byLength),
      fullText(
        table.words, query.prefixPattern, score: "bm25(\(table.words), \(wordWeights))",
        order: byScore),
      fullText(
        table.trigrams, query.substringPattern,
        score: "bm25(\(table.trigrams), \(gramWeights))", order: byScore),
      fullText(table.words, query.gramsPattern, score: nil, order: byLength),
    ]
    if let likes = query.likePatterns {
      let any =
        "(" + table.columns.map { "\($0) LIKE ? ESCAPE '\\'" }.joined(separator: " OR ") + ")"
      let condition = Array(repeating: any, count: likes.count).joined(separator: " AND ")
      var arguments = StatementArguments()
      for like in likes {
        arguments += StatementArguments(Array(repeating: like, count: table.columns.count))
      }
      let sql = """
        SELECT t.id FROM (SELECT id FROM \(table.table) WHERE \(condition) LIMIT \(cap)) h
        JOIN \(table.table) t ON t.id = h.id \(byLength)
        """
      tiers.append { _, _ in (sql, arguments) }
    }
    return tiers
  }
}
