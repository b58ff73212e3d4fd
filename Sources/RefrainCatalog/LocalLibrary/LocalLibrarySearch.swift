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
/// 4. every chunk as a substring (three characters or more, `trigram`) of the title, shortest
///    first; 5. the same within any column;
/// 6. one- and two-character Korean, Japanese or Chinese chunks inside words of the title
///    (``CJKGrams``), shortest first; 7. the same within any column;
/// 8. a plain scan (`instr`) for short text without letters or digits.
///
/// A broad query is answered by the first tiers from indexes alone. Tiers 2–8 each consider
/// at most ``candidatesPerSource`` matches (more for deeper pages), so a query matching most
/// of a 100,000-track library still answers in milliseconds; exact and title-prefix matches
/// are always complete. BM25 runs only in tier 3: its document counts cost a pass over every
/// match, which the other tiers avoid.
enum LocalLibrarySearch {
  /// The most matches one full-text tier ranks for the first pages.
  static let candidatesPerSource = 120

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
      guard let (sql, arguments) = tier(needed + found.count) else { continue }
      let ids: [Int64]
      do {
        ids = try Int64.fetchAll(db.cachedStatement(sql: sql), arguments: arguments)
      } catch let error as DatabaseError where error.resultCode == .SQLITE_ERROR {
        // Patterns are built from quoted text only (the tests check every one with GRDB's
        // `makeFTS5Pattern`); should SQLite still refuse one, that tier is skipped rather
        // than the user seeing a syntax error.
        continue
      }
      for id in ids where seen.insert(id).inserted {
        found.append(id)
      }
    }
    guard offset < found.count else { return [] }
    return Array(found[offset..<min(found.count, needed)])
  }

  /// A tier: given how many rows may be needed, its SQL and arguments, or `nil` when the query
  /// gives it nothing to look for.
  private typealias Tier = (Int) -> (String, StatementArguments)?

  private static func tiers(_ query: LocalSearchQuery, in table: LocalSearchTable, cap: Int)
    -> [Tier]
  {
    let key = table.keyColumn
    let byLength = "ORDER BY length(t.\(key)), t.\(key), t.id"
    let byScore = "ORDER BY h.score, t.\(key), t.id"
    let wordWeights = table.weights.map { String($0) }.joined(separator: ", ")

    /// Up to `cap` matches of `pattern` in `fts`, joined to the table and ordered.
    ///
    /// The pattern is bound as text rather than checked with GRDB's `makeFTS5Pattern` on every
    /// search: that check opens a scratch in-memory database each time (about 0.4 ms in a
    /// release build), which four tiers cannot afford within a 5 ms budget.
    func fullText(_ fts: String, _ pattern: String?, score: String?, order: String) -> Tier {
      { _ in
        guard let pattern else { return nil }
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
      { limit in
        ("SELECT id FROM \(table.table) WHERE \(key) = ? ORDER BY id LIMIT \(limit)", [query.key])
      },
      { limit in
        (
          "SELECT id FROM \(table.table) WHERE \(key) >= ? AND \(key) < ? "
            + "ORDER BY \(key), id LIMIT \(limit)",
          [query.key, query.keyUpperBound]
        )
      },
      fullText(
        table.words, query.prefixPattern(inColumns: [table.columns[0]]), score: nil,
        order: byLength),
      // The text columns only: the grams columns hold single characters that would match
      // most prefixes.
      fullText(
        table.words, query.prefixPattern(inColumns: table.columns),
        score: "bm25(\(table.words), \(wordWeights))", order: byScore),
      fullText(
        table.trigrams, query.substringPattern(inColumns: [table.columns[0]]), score: nil,
        order: byLength),
      fullText(table.trigrams, query.substringPattern, score: nil, order: byLength),
      fullText(
        table.words, query.gramsPattern(titleColumn: table.columns[0]), score: nil,
        order: byLength),
      fullText(table.words, query.gramsPattern(titleColumn: nil), score: nil, order: byLength),
    ]
    if let chunks = query.scanChunks {
      let any =
        "(" + table.columns.map { "instr(\($0), ?) > 0" }.joined(separator: " OR ") + ")"
      let condition = Array(repeating: any, count: chunks.count).joined(separator: " AND ")
      var arguments = StatementArguments()
      for chunk in chunks {
        arguments += StatementArguments(Array(repeating: chunk, count: table.columns.count))
      }
      let sql = """
        SELECT t.id FROM (SELECT id FROM \(table.table) WHERE \(condition) LIMIT \(cap)) h
        JOIN \(table.table) t ON t.id = h.id \(byLength)
        """
      tiers.append { _ in (sql, arguments) }
    }
    return tiers
  }
}
