import Foundation
import RefrainArt
import RefrainCore
import RefrainSession

/// The full-screen player's state and behaviour, independent of the terminal.
///
/// The main loop feeds it keys, player events and finished background work, and asks
/// it to render into a ``ScreenGrid``. Everything runs on the main loop's thread; catalog
/// and library calls run in background tasks whose results come back through the inbox.
public final class App {
  /// The listening session: playback, queue and lyrics, shared with the control socket.
  public let session: Session
  let provider: any CatalogProvider
  let keyMap: KeyMap
  let lyricHighlight: LyricHighlight
  /// Whether the terminal shows colours.
  let colors: Bool
  /// The monotonic clock, in seconds; injected, so `init` already reads the caller's clock.
  let now: () -> Double
  /// The covers shown, loaded in the background.
  let covers: CoverLoader
  let log: @Sendable (String) -> Void
  /// How the terminal shows pictures; the main loop sets it once the terminal is started.
  public var pictureOutput: PictureOutput = .none
  /// Whether translation lines show under their originals (`T` toggles it).
  var showsTranslations = true
  /// Whether lyrics show their romanization (`t` toggles it).
  var romanizes = false

  /// The focused pane; showing Library or Search re-reads the library in the background,
  /// so a change another process made shows up.
  var pane: Command.Pane = .home {
    didSet {
      if pane != oldValue, pane == .library || pane == .search { refreshLibrary() }
    }
  }
  /// The list panes, each with its cursor and the detail views pushed on it.
  var lists = ListPanes()
  /// The search box on the Search pane.
  var searchBox = SearchBox()
  var overlay: Overlay?
  /// The lyrics view, while it is open over the panes.
  var lyricsView: LyricsPane?
  /// What the lyrics panes say instead of lyrics.
  var lyricsNotice: String? { session.lyricsNotice }
  /// Whether Enter in the lyrics view seeks; kept when the view closes and opens again.
  var lyricsSeekMode = true
  /// The audible position read as the last frame began, from which the next wake counts.
  var drawnPosition: Double?
  var status: StatusMessage?
  /// What the panes show from the library, as the session last read it.
  var librarySnapshot: LibrarySnapshot? { session.browsing.library }
  /// Library calls asked for whose results the main loop has not applied yet.
  var libraryCallsPending: Int { session.libraryCallsPending }
  /// What the last frame drawn laid out: click targets and the content height.
  var layout = FrameLayout()
  /// Whether the user asked to quit.
  public private(set) var shouldQuit = false

  /// Creates the app and starts loading the Home pane and the library's snapshot.
  public init(_ dependencies: AppDependencies) {
    session = dependencies.session
    provider = dependencies.provider
    keyMap = dependencies.keyMap
    lyricHighlight = dependencies.lyricHighlight
    colors = dependencies.colors
    now = dependencies.now
    covers = CoverLoader(provider: dependencies.covers, log: dependencies.log)
    log = dependencies.log
    romanizes = dependencies.romanize
    if let notice = dependencies.startupNotice { setStatus(notice, error: true, seconds: 8) }
    if session.catalog == nil { session.catalog = provider }
    session.subscribe { [weak self] event in
      switch event {
      case .notice(let text, let isError): self?.setStatus(text, error: isError)
      case .progress(let text?): self?.setStatus(text, seconds: 60)
      case .progress(nil): self?.status = nil
      case .libraryChanged: self?.refreshLibrary()
      case .browsingChanged: self?.followServerPlaylists()
      case .roomChanged: self?.roomChanged()
      case .player(let news): self?.show(news)
      case .lyricsChanged: break
      }
    }
    session.loadHome()
    refreshLibrary()
  }

  // MARK: - Input

  /// Handles one key press.
  public func handle(key: Key) {
    if key == .resize { return }
    if handleTyping(key) { return }
    let context: KeyContext = lyricsView != nil ? .lyrics : .lists
    if lyricsView != nil { lyricsView?.lastInput = now() }
    if case .click(let x, let y) = key { return click(x: x, y: y) }
    guard let command = keyMap.command(for: key, in: context) else {
      if case .help? = overlay { overlay = nil }  // "any key closes", unbound keys too
      return
    }
    handle(command)
  }

  /// Handles a command from a key, the `:` prompt or the control socket.
  public func handle(_ command: Command) {
    if handleOverlay(command) { return }
    if var view = lyricsView {
      let result = view.handle(command, model: lyricsModel, page: layout.contentHeight)
      lyricsView = view
      lyricsSeekMode = view.seekMode
      if carryOut(result) { return }
    }
    if pane != .player || list.hasDetail {
      var pane = list
      let result = pane.handle(command, model: listContent, page: max(1, layout.contentHeight - 1))
      list = pane
      if carryOut(result) { return }
    }
    handleGlobal(command)
  }

  /// Carries out what a pane's handler asked for; false when the pane ignored the command.
  private func carryOut(_ result: PaneResult) -> Bool {
    switch result {
    case .ignored: return false
    case .handled: break
    case .close: lyricsView = nil
    case .status(let text, let error): setStatus(text, error: error)
    case .session(let command): show(execute(command))
    case .closeAfter(let command):
      show(execute(command))
      lyricsView = nil
    case .overlay(let overlay): self.overlay = overlay
    case .effect(let effect): perform(effect)
    }
    return true
  }

  /// Handles a command from `refrain ctl`: like the prompt, but `quit` never asks.
  public func handle(remote command: Command) {
    if command == .quit {
      shouldQuit = true
      return
    }
    handle(command)
  }

  /// Runs the work background tasks finished.
  public func drainInbox() {
    session.drainInbox()
    covers.drain()
  }

  // MARK: - Global commands

  func handleGlobal(_ command: Command) {
    if show(execute(command)) { return }
    switch command {
    case .chat, .importLibrary, .publishLyricsNow, .syncNudge, .syncCheck, .playItem,
      .playCatalog:
      break  // the session's: carried out above
    case .publishLyrics:
      if let question = session.publishQuestion() {
        overlay = .confirm(question: question, action: .publishLyrics)
      }
    case .translations:
      guard session.lyricsTimeline?.groups.roles.contains(.translation) == true else {
        return setStatus("these lyrics have no translations")
      }
      showsTranslations.toggle()
      setStatus("translations \(showsTranslations ? "shown" : "hidden") (T)")
    case .romanize:
      romanizes.toggle()
      setStatus("romanization \(romanizes ? "on" : "off") (t)")
    case .lyrics:
      lyricsView = LyricsPane(
        seekMode: lyricsSeekMode, selection: lyricsModel.current, lastInput: now())
    case .show(let target):
      pane = target
      lyricsView = nil
      if target == .search { searchBox.editing = session.browsing.search.query.isEmpty }
    case .nextPane:
      // The Room pane is in the cycle only in a room.
      let all = Command.Pane.tabs(inRoom: room != nil)
      pane = all[((all.firstIndex(of: pane) ?? 0) + 1) % all.count]
      lyricsView = nil
    case .search(let query):
      pane = .search
      lyricsView = nil
      if let query {
        runSearch(query)
      } else {
        searchBox.editing = true
        searchBox.editor = LineEditor(text: session.browsing.search.query)
      }
    case .help: overlay = .help
    case .prompt: overlay = .input(title: ":", editor: LineEditor(), purpose: .command)
    case .back:
      if pane != .home {
        pane = .home
      } else {
        handleGlobal(.quit)
      }
    case .quit:
      if session.snapshot.state == .playing {
        overlay = .confirm(question: "Quit while music is playing? (y/n)", action: .quit)
      } else {
        shouldQuit = true
      }
    case .newPlaylist(let name):
      createPlaylist(named: name, adding: [], onServer: session.catalogKeepsPlaylists)
    case .save where pane == .player && session.snapshot.track != nil:
      // The Player pane's `+` likes (or, on a server with stars, stars) what plays.
      if let current = session.snapshot.track {
        show(execute(.library(.save(.track(session.catalogTrack(for: current))))))
      }
    case .seekMode, .follow, .move, .open, .add, .addToPlaylist, .save, .rename, .delete,
      .remove, .moveItemUp, .moveItemDown, .playAll, .findInLyrics:
      if let hint = command.hintWhenNoPaneTakesIt(listOpen: list.hasDetail) { setStatus(hint) }
    case .togglePlay, .play, .pause, .stop, .next, .previous, .seek, .volume, .shuffle, .repeat,
      .setShuffle, .setRepeat, .nudge, .lyricLine, .queueAdd, .queueClear, .queueList,
      .queueRemove, .queueMove, .queuePlay, .playTracks, .enqueue, .status, .lyricsSync, .room,
      .playlist, .library:
      break  // the session's: carried out above
    }
  }

  /// Shows what the session did with a command on the status line; false when the command
  /// was not the session's.
  @discardableResult
  func show(_ outcome: Outcome) -> Bool {
    switch outcome {
    case .done(let message?):
      setStatus(message, seconds: message.hasPrefix("lyrics offset") ? 2 : 4)
    case .done(nil): break
    case .failed(let reason): setStatus(reason, error: true)
    case .notForSession: return false
    }
    return true
  }

  /// Sets the status line; it clears itself after `seconds`.
  func setStatus(_ text: String, error: Bool = false, seconds: Double = 4) {
    status = StatusMessage(
      text: TerminalSanitizer.clean(text), isError: error, expires: now() + seconds)
  }

  // MARK: - Typing

  /// Sends keys to the search box or an input overlay while one has focus.
  private func handleTyping(_ key: Key) -> Bool {
    if let result = overlay?.handle(key: key) {
      _ = carryOut(result)
      return true
    }
    if startsChat(key) { return true }
    guard pane == .search, searchBox.editing, overlay == nil, lyricsView == nil else {
      return false
    }
    switch searchBox.handle(key, history: librarySnapshot?.recentSearches ?? []) {
    case .handled: return true
    case .search(let text):
      runSearch(text)
      return true
    case .passed: return false
    }
  }

  func submit(_ text: String, for purpose: InputPurpose) {
    switch purpose {
    case .command:
      guard !text.trimmingCharacters(in: .whitespaces).isEmpty else { return }
      do {
        handle(try CommandParser.parse(text))
      } catch {
        setStatus("\(error)", error: true)
      }
    case .newPlaylist(let tracks, let onServer):
      createPlaylist(named: text, adding: tracks, onServer: onServer)
    case .rename(let id):
      guard !text.isEmpty else { return }
      show(execute(.library(.rename(id, to: text))))
    case .renameOnServer(let id):
      guard !text.isEmpty else { return }
      perform(.editServerPlaylist(.rename(id, text)))
    case .chat:
      sendChat(text)
    case .findLyric:
      guard !text.trimmingCharacters(in: .whitespaces).isEmpty else { return }
      handle(.findInLyrics(text))
    }
  }

  func confirm(_ action: ConfirmAction) {
    switch action {
    case .quit:
      shouldQuit = true
    case .deletePlaylist(let id):
      show(execute(.library(.delete(id))))
    case .deleteOnServer(let id):
      perform(.editServerPlaylist(.delete(id)))
    case .leaveSync:
      show(execute(.lyricsSync(.cancel)))
      lyricsView = nil
    case .publishLyrics:
      show(execute(.publishLyricsNow))
    }
  }

  /// Creates a playlist holding `tracks` in the background, on the catalog's server or in
  /// Refrain's library; without a name, asks for one.
  func createPlaylist(named name: String?, adding tracks: [CatalogTrack], onServer: Bool) {
    guard onServer || session.libraryAvailable else {
      return setStatus("the library is not available", error: true)
    }
    guard let name, !name.trimmingCharacters(in: .whitespaces).isEmpty else {
      overlay = .input(
        title: onServer ? "New playlist on the server, name:" : "New playlist name:",
        editor: LineEditor(), purpose: .newPlaylist(adding: tracks, onServer: onServer))
      return
    }
    if onServer { return addOnServer(tracks, .new(name: name)) }
    show(execute(.library(.create(name: name, tracks: tracks))))
  }

}
