import GRDB
import GRDBSQLite

/// A prepared statement whose values are bound straight into SQLite, for the scan's inner loop.
///
/// GRDB's `execute(arguments:)` wraps every value in a `DatabaseValue` and checks the
/// arguments on each call; with several statements a file, that was about a quarter of a
/// scan's write time. This binds text, integers and reals directly, steps once, and resets.
/// Use it only inside a write transaction on the connection that prepared it, for plain
/// `INSERT`, `UPDATE`, `DELETE` and single-row `SELECT` statements (no transaction control).
struct BoundStatement {
  /// SQLite's `SQLITE_TRANSIENT`: it copies bound text before the call returns.
  private static let transient = unsafeBitCast(
    OpaquePointer(bitPattern: -1), to: sqlite3_destructor_type.self)

  /// GRDB's statement, kept for its cache entry, its SQL and its lifetime.
  private let statement: Statement

  /// Prepares `sql` (or takes it from the connection's statement cache).
  init(_ db: Database, sql: String) throws {
    statement = try db.cachedStatement(sql: sql)
    // GRDB resets a statement before it runs it, not after: one it ran last is still done.
    sqlite3_reset(handle)
    sqlite3_clear_bindings(handle)
  }

  private var handle: SQLiteStatement { statement.sqliteStatement }

  /// Binds text (or `NULL`) to the 1-based parameter `index`.
  func bind(_ index: Int32, _ value: String?) {
    guard var value else {
      bound { sqlite3_bind_null(handle, index) }
      return
    }
    value.withUTF8 { bytes in
      bound {
        guard let base = bytes.baseAddress else {
          return sqlite3_bind_text(handle, index, "", 0, Self.transient)
        }
        return base.withMemoryRebound(to: CChar.self, capacity: bytes.count) {
          sqlite3_bind_text(handle, index, $0, Int32(bytes.count), Self.transient)
        }
      }
    }
  }

  /// Binds an integer (or `NULL`).
  func bind(_ index: Int32, _ value: Int64?) {
    bound {
      if let value { return sqlite3_bind_int64(handle, index, value) }
      return sqlite3_bind_null(handle, index)
    }
  }

  /// Binds an integer (or `NULL`).
  func bind(_ index: Int32, _ value: Int?) { bind(index, value.map(Int64.init)) }

  /// Binds a real (or `NULL`).
  func bind(_ index: Int32, _ value: Double?) {
    bound {
      if let value { return sqlite3_bind_double(handle, index, value) }
      return sqlite3_bind_null(handle, index)
    }
  }

  /// Binds a boolean as 0 or 1.
  func bind(_ index: Int32, _ value: Bool) {
    bound { sqlite3_bind_int64(handle, index, value ? 1 : 0) }
  }

  /// Runs one `sqlite3_bind_…` call, resetting the statement first when SQLite asks for it.
  ///
  /// SQLite refuses to bind (`SQLITE_MISUSE`) until a statement that ran is reset. Should GRDB
  /// have run this cached statement since ``run()`` reset it, the first binding of the row
  /// meets that: reset, and bind again.
  private func bound(_ bind: () -> Int32) {
    guard bind() == SQLITE_MISUSE else { return }
    sqlite3_reset(handle)
    sqlite3_clear_bindings(handle)
    _ = bind()
  }

  /// Runs the statement once; returns the first column of the first row, if it returned one.
  ///
  /// The statement is reset afterwards and its bindings are cleared, so a value bound for one
  /// row never leaks into the next.
  @discardableResult
  func run() throws -> Int64? {
    defer {
      sqlite3_reset(handle)
      sqlite3_clear_bindings(handle)
    }
    let code = sqlite3_step(handle)
    switch code {
    case SQLITE_DONE:
      return nil
    case SQLITE_ROW:
      return sqlite3_column_type(handle, 0) == SQLITE_NULL ? nil : sqlite3_column_int64(handle, 0)
    default:
      let connection = sqlite3_db_handle(handle)
      throw DatabaseError(
        resultCode: ResultCode(rawValue: code),
        message: connection.flatMap { sqlite3_errmsg($0) }.map { String(cString: $0) },
        sql: statement.sql)
    }
  }
}
