import GRDB

/// One searchable table of the local index and its two full-text tables.
///
/// `<index>_words` (`unicode61`) indexes the text columns plus `title_grams` and `other_grams`
/// (``CJKGrams`` of the first column and of the rest, stored on the row);
/// `<index>_grams` (`trigram`) indexes the text columns. Both read their text from the table's
/// rows (external content, migration `v7`) and share its row IDs.
struct LocalSearchTable: Sendable {
  /// The content table (`local_tracks`).
  var table: String
  /// The full-text tables' name prefix (`local_track` → `local_track_words`, `…_grams`).
  var index: String
  /// The lowercased title or name column used for the exact and prefix ranks.
  var keyColumn: String
  /// The text columns, in full-text column order; the first is the title or name.
  var columns: [String]
  /// BM25 weights per text column (the title counts most), then for the two grams columns.
  var weights: [Double]

  static let tracks = LocalSearchTable(
    table: "local_tracks", index: "local_track", keyColumn: "title_key",
    columns: ["title", "artist", "album"], weights: [10, 4, 2, 1, 1])
  static let albums = LocalSearchTable(
    table: "local_albums", index: "local_album", keyColumn: "title_key",
    columns: ["title", "artist_name"], weights: [10, 4, 1, 1])
  static let artists = LocalSearchTable(
    table: "local_artists", index: "local_artist", keyColumn: "key", columns: ["name"],
    weights: [2, 1, 1])

  /// The word table.
  var words: String { index + "_words" }
  /// The trigram table.
  var trigrams: String { index + "_grams" }

  /// `INSERT INTO <index>_words (rowid, <columns>, title_grams, other_grams) VALUES (…)`.
  private var insertWordsSQL: String {
    let marks = Array(repeating: "?", count: columns.count).joined(separator: ", ")
    return """
      INSERT INTO \(words) (rowid, \(columns.joined(separator: ", ")), title_grams, other_grams)
      VALUES (?, \(marks), ?, ?)
      """
  }

  /// Prepares the statements that write and remove rows of both full-text tables on `db`.
  func writer(_ db: Database) throws -> Writer {
    let marks = Array(repeating: "?", count: columns.count).joined(separator: ", ")
    let names = columns.joined(separator: ", ")
    let newest = try BoundStatement(db, sql: "SELECT max(id) FROM \(table)").run() ?? 0
    return Writer(
      columnCount: columns.count,
      insertWords: try BoundStatement(db, sql: insertWordsSQL),
      insertTrigrams: try BoundStatement(
        db, sql: "INSERT INTO \(trigrams) (rowid, \(names)) VALUES (?, \(marks))"),
      copyWords: try BoundStatement(
        db,
        sql: """
          INSERT INTO \(words) (rowid, \(names), title_grams, other_grams)
          SELECT id, \(names), title_grams, other_grams FROM \(table) WHERE id > ? AND id <= ?
          """),
      copyTrigrams: try BoundStatement(
        db,
        sql: """
          INSERT INTO \(trigrams) (rowid, \(names))
          SELECT id, \(names) FROM \(table) WHERE id > ? AND id <= ?
          """),
      deleteWords: try BoundStatement(db, sql: "DELETE FROM \(words) WHERE rowid = ?"),
      deleteTrigrams: try BoundStatement(db, sql: "DELETE FROM \(trigrams) WHERE rowid = ?"),
      indexedThrough: newest)
  }

  /// Writes and removes the full-text rows of one table, inside one write transaction.
  ///
  /// Rows inserted in the transaction (row IDs above the largest one before it) are indexed
  /// together, by one `INSERT … SELECT` per full-text table, in ``flush()``: 10,000 new
  /// tracks cost two statements instead of 20,000. Call ``flush()`` before the transaction
  /// commits; ``remove(rowID:)`` flushes first when the row is one of them.
  final class Writer {
    let columnCount: Int
    let insertWords: BoundStatement
    let insertTrigrams: BoundStatement
    let copyWords: BoundStatement
    let copyTrigrams: BoundStatement
    let deleteWords: BoundStatement
    let deleteTrigrams: BoundStatement
    /// Rows up to this ID are in the full-text tables (or were before the transaction).
    private var indexedThrough: Int64
    /// The largest row ID waiting for ``flush()``.
    private var newest: Int64

    init(
      columnCount: Int, insertWords: BoundStatement, insertTrigrams: BoundStatement,
      copyWords: BoundStatement, copyTrigrams: BoundStatement, deleteWords: BoundStatement,
      deleteTrigrams: BoundStatement, indexedThrough: Int64
    ) {
      self.columnCount = columnCount
      self.insertWords = insertWords
      self.insertTrigrams = insertTrigrams
      self.copyWords = copyWords
      self.copyTrigrams = copyTrigrams
      self.deleteWords = deleteWords
      self.deleteTrigrams = deleteTrigrams
      self.indexedThrough = indexedThrough
      newest = indexedThrough
    }

    /// Indexes a row's text (`values` in column order) with the grams of its title and of
    /// the other columns (``CJKGrams``): the very values the row holds.
    ///
    /// A row inserted in this transaction waits for ``flush()``, which reads those values
    /// from the row itself.
    func write(rowID: Int64, values: [String?], grams: (title: String?, other: String?)) throws {
      if rowID > indexedThrough {
        newest = max(newest, rowID)
        return
      }
      insertWords.bind(1, rowID)
      insertTrigrams.bind(1, rowID)
      for (offset, value) in values.prefix(columnCount).enumerated() {
        insertWords.bind(Int32(offset + 2), value)
        insertTrigrams.bind(Int32(offset + 2), value)
      }
      insertWords.bind(Int32(columnCount + 2), grams.title)
      insertWords.bind(Int32(columnCount + 3), grams.other)
      try insertWords.run()
      try insertTrigrams.run()
    }

    /// Indexes the rows waiting since the last flush, reading their text from the table.
    func flush() throws {
      guard newest > indexedThrough else { return }
      for statement in [copyWords, copyTrigrams] {
        statement.bind(1, indexedThrough)
        statement.bind(2, newest)
        try statement.run()
      }
      indexedThrough = newest
    }

    /// Removes a row from both full-text tables; call it before the row changes or goes.
    func remove(rowID: Int64) throws {
      if rowID > indexedThrough { try flush() }
      deleteWords.bind(1, rowID)
      try deleteWords.run()
      deleteTrigrams.bind(1, rowID)
      try deleteTrigrams.run()
    }
  }

  /// Adds a row to the word table only, with the grams of its title and of the other columns.
  func writeWords(rowID: Int64, values: [String?], in db: Database) throws {
    let grams = [
      CJKGrams.grams(Array(values.prefix(1))), CJKGrams.grams(Array(values.dropFirst())),
    ]
    try db.cachedStatement(sql: insertWordsSQL)
      .execute(arguments: StatementArguments([rowID] + values + grams))
  }

  /// Removes a row from both full-text tables; call it before the row changes or goes.
  func remove(rowID: Int64, in db: Database) throws {
    try db.cachedStatement(sql: "DELETE FROM \(words) WHERE rowid = ?").execute(arguments: [rowID])
    try db.cachedStatement(sql: "DELETE FROM \(trigrams) WHERE rowid = ?")
      .execute(arguments: [rowID])
  }
}
