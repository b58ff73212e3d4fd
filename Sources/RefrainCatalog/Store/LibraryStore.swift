import Foundation
import GRDB
import RefrainCore

/// The user's library: one SQLite file holding playlists, favourites, history, lyrics data,
/// the last session and the local folder index.
///
/// `LibraryStore` owns the connection, the schema and its migrations, the saved session,
/// likes and saved albums, recent searches and play history, and the stored copies of
/// tracks. The other parts share its connection through small values it hands out:
/// ``playlistStore``, ``lyrics``, ``measuredGains``, ``scrobbleQueue``, ``radio`` and
/// ``spotifyImport``.
///
/// The file is `$XDG_DATA_HOME/refrain/library.sqlite` (`~/.local/share/refrain/…` when the
/// variable is unset). It is opened as a GRDB `DatabasePool` in WAL mode, so readers (the
/// panes, `refrain search`) never wait for a writer (`refrain scan`), and several Refrain
/// processes can share it.
///
/// Every method that changes data runs one transaction and returns only after it committed.
/// With the default ``LibraryDurability/normal`` (`synchronous=NORMAL` in WAL mode) a
/// committed change survives the Refrain process being killed at any moment; a power cut or
/// kernel crash may lose the last few commits but never corrupts the file. Choose
/// ``LibraryDurability/full`` to fsync on every commit.
///
/// The methods are synchronous and safe to call from any thread; call them off the UI thread
/// when a pane must not wait for the disk.
public final class LibraryStore: Sendable {
  /// The SQLite file.
  public let fileURL: URL

  /// The connection pool every read and write goes through (one connection while a new
  /// file is built, see ``init(buildingNewFileAt:)``).
  let pool: any DatabaseWriter
  /// Where a new library is built until ``publish()`` moves it to ``fileURL``.
  let buildingURL: URL?

  /// Opens (creating when needed) the library at `fileURL` and migrates it to the latest schema.
  public convenience init(fileURL: URL, durability: LibraryDurability = .normal) throws {
    try self.init(fileURL: fileURL, durability: durability, migratingUpTo: nil)
  }

  /// Opens the library and applies migrations up to `lastMigration` (all when `nil`).
  ///
  /// Tests use this to build a database as an earlier Refrain left it.
  init(fileURL: URL, durability: LibraryDurability, migratingUpTo lastMigration: String?) throws {
    self.fileURL = fileURL
    buildingURL = nil
    try Self.createFolder(of: fileURL)
    Self.keepPrivate(fileURL)
    var configuration = Configuration()
    configuration.label = "refrain.library"
    // Another Refrain process (a scan, the player) may hold the write lock for a moment.
    configuration.busyMode = .timeout(10)
    configuration.foreignKeysEnabled = true
    let synchronous = durability.pragmaValue
    configuration.prepareDatabase { db in
      // A new file gets 8 KB pages (before GRDB turns on WAL, which fixes the size): a scan
      // writes fewer, fuller pages. An existing file keeps its page size.
      try db.execute(sql: "PRAGMA page_size = 8192")
      try db.execute(sql: "PRAGMA synchronous = \(synchronous)")
      // 16 MB of page cache per connection keeps a scan's index pages in memory.
      try db.execute(sql: "PRAGMA cache_size = -16384")
    }
    do {
      pool = try DatabasePool(path: fileURL.path, configuration: configuration)
      let migrator = LibrarySchema.migrator
      if let lastMigration {
        try migrator.migrate(pool, upTo: lastMigration)
      } else {
        try pool.writeWithoutTransaction { db in try LibrarySchema.createLatestIfNew(db) }
        try migrator.migrate(pool)
        // A first scan killed before it rebuilt its indexes left them out.
        try pool.writeWithoutTransaction { db in
          guard try !LocalLibrarySchema.hasTrackIndexes(db) else { return }
          try db.inTransaction {
            try LocalLibrarySchema.createTrackIndexes(db)
            return .commit
          }
        }
      }
    } catch let error as DatabaseError {
      throw LibraryStoreError.cannotOpen(path: fileURL.path, reason: error.message ?? "\(error)")
    }
  }

  /// Starts a new library beside `fileURL`, for a first scan, which ``publish()`` moves there.
  ///
  /// A first scan writes every row of the new file. Built under another name, on one
  /// connection without a journal or syncs, each page is written once instead of to the WAL
  /// and again at each checkpoint (10,000 files: 0.24 s → 0.21 s). Until it is published
  /// nothing else sees the file, so a scan killed halfway leaves no half-built library, only
  /// a file the next build removes.
  public init(buildingNewFileAt fileURL: URL) throws {
    self.fileURL = fileURL
    try Self.createFolder(of: fileURL)
    Self.removeAbandonedBuilds(of: fileURL)
    let building = Self.buildingURL(of: fileURL, process: getpid())
    unlink(building.path)
    buildingURL = building
    Self.keepPrivate(building)
    var configuration = Configuration()
    configuration.label = "refrain.library.build"
    configuration.foreignKeysEnabled = true
    configuration.prepareDatabase { db in
      try db.execute(sql: "PRAGMA page_size = 8192")
      try db.execute(sql: "PRAGMA journal_mode = OFF")
      try db.execute(sql: "PRAGMA synchronous = OFF")
      try db.execute(sql: "PRAGMA locking_mode = EXCLUSIVE")
      try db.execute(sql: "PRAGMA cache_size = -16384")
    }
    do {
      pool = try DatabaseQueue(path: building.path, configuration: configuration)
      try pool.writeWithoutTransaction { db in try LibrarySchema.createLatestIfNew(db) }
      try LibrarySchema.migrator.migrate(pool)
    } catch let error as DatabaseError {
      unlink(building.path)
      throw LibraryStoreError.cannotOpen(path: building.path, reason: error.message ?? "\(error)")
    }
  }

  /// Moves a library built with ``init(buildingNewFileAt:)`` to ``fileURL`` once it is on the
  /// disk, and closes this store; `false` when a library appeared there meanwhile (another
  /// Refrain created one), which is left as it was while the build is removed.
  ///
  /// An open library is already in place: `true`.
  public func publish() throws -> Bool {
    guard let building = buildingURL else { return true }
    defer { unlink(building.path) }
    do {
      try pool.close()
    } catch let error as DatabaseError {
      throw LibraryStoreError.database(error.message ?? "\(error)")
    }
    try Self.sync(building.path, flags: O_RDONLY)
    // `link` never replaces a file: a library created since the build began stays. A file
    // system without hard links (FAT) gets a `rename` when no library is there.
    if link(building.path, fileURL.path) != 0 {
      if errno == EEXIST || FileManager.default.fileExists(atPath: fileURL.path) { return false }
      guard rename(building.path, fileURL.path) == 0 else {
        throw LibraryStoreError.cannotOpen(
          path: fileURL.path, reason: String(cString: strerror(errno)))
      }
    }
    try Self.sync(fileURL.deletingLastPathComponent().path, flags: O_RDONLY | O_DIRECTORY)
    return true
  }

  /// Closes and removes a library built with ``init(buildingNewFileAt:)`` (a scan that failed).
  public func discard() {
    guard let building = buildingURL else { return }
    try? pool.close()
    unlink(building.path)
  }

  /// `<library>.building-<pid>`: a library the process `pid` is building.
  static func buildingURL(of fileURL: URL, process: pid_t) -> URL {
    fileURL.deletingLastPathComponent()
      .appendingPathComponent("\(fileURL.lastPathComponent).building-\(process)")
  }

  /// Removes the builds of processes that are gone (a first scan that was killed).
  private static func removeAbandonedBuilds(of fileURL: URL) {
    let folder = fileURL.deletingLastPathComponent()
    let prefix = fileURL.lastPathComponent + ".building-"
    let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
    for name in names where name.hasPrefix(prefix) {
      guard let process = pid_t(name.dropFirst(prefix.count)) else { continue }
      if kill(process, 0) != 0, errno == ESRCH {
        unlink(folder.appendingPathComponent(name).path)
      }
    }
  }

  /// Creates the folder the library file goes in, when missing.
  private static func createFolder(of fileURL: URL) throws {
    do {
      try FileManager.default.createDirectory(
        at: fileURL.deletingLastPathComponent(), withIntermediateDirectories: true)
    } catch {
      throw LibraryStoreError.cannotOpen(
        path: fileURL.path, reason: "\(error.localizedDescription)")
    }
  }

  /// Makes the library file readable by its owner only (mode 0600), creating it empty when
  /// it is not there; SQLite gives its `-wal` and `-shm` files the same mode.
  ///
  /// The library holds the listening history and the stream URLs of a home server's tracks,
  /// which carry the login's token. A file that cannot be changed is left as it is: opening
  /// it reports any real trouble.
  private static func keepPrivate(_ fileURL: URL) {
    let descriptor = open(fileURL.path, O_RDONLY | O_CREAT | O_CLOEXEC, 0o600)
    guard descriptor >= 0 else { return }
    _ = fchmod(descriptor, 0o600)
    close(descriptor)
  }

  /// `fsync` of the file or folder at `path`.
  private static func sync(_ path: String, flags: Int32) throws {
    let descriptor = open(path, flags | O_CLOEXEC)
    guard descriptor >= 0, fsync(descriptor) == 0 else {
      let reason = String(cString: strerror(errno))
      if descriptor >= 0 { close(descriptor) }
      throw LibraryStoreError.cannotOpen(path: path, reason: reason)
    }
    close(descriptor)
  }

  /// `$XDG_DATA_HOME/refrain/library.sqlite`, or `$HOME/.local/share/refrain/library.sqlite`.
  ///
  /// A relative `XDG_DATA_HOME` is ignored, as the XDG base directory specification asks.
  public static func defaultFileURL(
    environment: [String: String] = ProcessInfo.processInfo.environment
  ) -> URL {
    DataFolder.url(environment: environment).appendingPathComponent("library.sqlite")
  }

  /// Opens the library at ``defaultFileURL(environment:)``.
  public static func openDefault(
    environment: [String: String] = ProcessInfo.processInfo.environment
  ) throws -> LibraryStore {
    try LibraryStore(fileURL: defaultFileURL(environment: environment))
  }

  // MARK: - Parts

  /// The playlists: creating, renaming and editing them.
  public var playlistStore: PlaylistStore { PlaylistStore(store: self) }
  /// The lyrics cache, the lyric offsets and the lyric search index's lines.
  public var lyrics: LyricsStore { LyricsStore(store: self) }
  /// ReplayGain measured by `refrain scan --replaygain`.
  public var measuredGains: ReplayGainStore { ReplayGainStore(store: self) }
  /// The offline queue of listens for the scrobbling services.
  public var scrobbleQueue: ScrobbleQueue { ScrobbleQueue(store: self) }
  /// The radio stations.
  public var radio: RadioStations { RadioStations(store: self) }
  /// The imported Spotify library and the import in progress.
  public var spotifyImport: SpotifyImportStore { SpotifyImportStore(store: self) }

  /// The migrations applied to the file, oldest first (`v1`, `v2`, …).
  public func appliedMigrations() throws -> [String] {
    try read { db in try LibrarySchema.migrator.appliedMigrations(db) }
  }

  /// Checks the whole file with `PRAGMA integrity_check`; `true` when SQLite finds no damage.
  public func checkIntegrity() throws -> Bool {
    try read { db in try String.fetchOne(db, sql: "PRAGMA integrity_check") == "ok" }
  }

  // MARK: - Access

  /// Runs `body` in a read-only snapshot of the database.
  func read<T>(_ body: (Database) throws -> T) throws -> T {
    do {
      return try pool.read(body)
    } catch let error as DatabaseError {
      throw failure(error)
    }
  }

  /// Runs `body` in one write transaction and returns after it committed.
  func write<T>(_ body: (Database) throws -> T) throws -> T {
    do {
      return try pool.write(body)
    } catch let error as DatabaseError {
      throw failure(error)
    }
  }

  /// What a database error means to the user: a full disk names the library's file.
  func failure(_ error: DatabaseError) -> LibraryStoreError {
    if error.resultCode == .SQLITE_FULL { return .diskFull(path: fileURL.path) }
    return .database(error.message ?? "\(error)")
  }

  /// The current time as stored in the file: seconds since 1970.
  static func now() -> Double { Date().timeIntervalSince1970 }
}

/// How hard a commit works to reach the disk.
public enum LibraryDurability: Sendable {
  /// `synchronous=NORMAL`: survives a killed process; a power cut may lose the last commits.
  case normal
  /// `synchronous=FULL`: every commit is synced to the disk before the call returns.
  case full

  fileprivate var pragmaValue: String {
    switch self {
    case .normal: return "NORMAL"
    case .full: return "FULL"
    }
  }
}
