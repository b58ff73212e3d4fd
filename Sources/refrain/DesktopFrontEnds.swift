import Foundation
import Logging
import RefrainArt
import RefrainCatalog
import RefrainCore
import RefrainDesktop
import RefrainSession
import RefrainTags

/// Wires the desktop front ends (MPRIS) into a session: the details look-up (tags, and the
/// cover in the same cache the full-screen player fills) and the log.
enum DesktopFrontEnds {
  /// Starts MPRIS for `session` when `desktop.mpris` is on; `onQuit` is what `Quit` does.
  ///
  /// With no session bus the server logs one line and stays out of the way.
  ///
  /// `notifies` (`desktop.notify`) adds a desktop notification on each track change, sent
  /// over the same connection.
  static func startMPRIS(
    enabled: Bool, notifies: Bool = false, session: Session, environment: [String: String],
    onQuit: @escaping () -> Void
  ) -> MPRISServer? {
    guard enabled else { return nil }
    let logger = Logger(label: "refrain.mpris")
    return MPRISServer.start(
      session: session, details: detailsLookup(environment: environment), notifies: notifies,
      log: { logger.info("\($0)") }, onQuit: onQuit)
  }

  /// Reads a local file's tags and finds the track's cover, as the Player pane does (the same
  /// album, so a file in `$XDG_CACHE_HOME/refrain/covers` the pane already fetched, of any
  /// size; with none, a catalog cover that names its size is asked at the smallest bucket).
  static func detailsLookup(environment: [String: String]) -> TrackDetailsLookup {
    let home = URL(fileURLWithPath: environment["HOME"] ?? NSHomeDirectory(), isDirectory: true)
    let cache = CoverDiskCache(
      directory: CoverDiskCache.defaultDirectory(environment: environment, home: home))
    let locator = CoverLocator(cache: cache, fetch: CoverFetching.download)
    return { track in
      var details = TrackDetails()
      if track.location.isFileURL,
        let tags = try? AudioTagReader().readTags(atPath: track.location.path)
      {
        details.title = tags.title
        details.artist = tags.artist
        details.album = tags.album
        details.albumArtist = tags.albumArtist
      }
      details.coverFile = try? await locator.locate(LocatedCovers.request(for: track)).cacheFile
      return details
    }
  }
}
