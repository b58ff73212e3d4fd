import Foundation
import RefrainCore

/// The shell's drawing: the focused pane in the middle (each pane draws itself), the
/// ``Chrome`` around it.
extension App {
  /// The smallest terminal Refrain lays out; below it a notice is shown.
  static let minimumSize = (width: 40, height: 12)

  /// Computes the whole screen for a terminal of `width` × `height`: the tabs, the focused
  /// pane, the now-playing and status lines and the overlay.
  ///
  /// Pure: it reads the app and writes nothing; ``draw(width:height:)`` keeps its layout.
  public func frame(width: Int, height: Int) -> Frame {
    var grid = ScreenGrid(width: width, height: height)
    var layout = FrameLayout()
    guard width >= Self.minimumSize.width, height >= Self.minimumSize.height else {
      grid.put("terminal too small", x: 0, y: 0, maxWidth: width, style: .error)
      grid.put("(\(width)×\(height), needs 40×12)", x: 0, y: 1, maxWidth: width, style: .dim)
      return Frame(grid: grid, layout: layout)
    }
    let content = Rect(x: 0, y: 1, width: width, height: height - 3)
    layout.contentHeight = content.height
    if let lyricsView {
      lyricsView.render(lyricsModel, into: &grid, in: content, layout: &layout)
    } else if pane == .room {
      RoomPane().render(room, into: &grid, in: content, layout: &layout)
    } else if pane == .player && !list.hasDetail {
      PlayerPane().render(playerModel, into: &grid, in: content, layout: &layout)
    } else {
      list.render(listContent, into: &grid, in: content, layout: &layout)
    }
    Chrome(model: chromeModel).render(into: &grid, layout: &layout)
    switch overlay {
    case .help?, .picker?: grid.pictures = []  // a box over the pane hides the cover
    case .input?, .confirm?, nil: break
    }
    return Frame(grid: grid, layout: layout)
  }

  /// Computes the screen and keeps what it laid out.
  ///
  /// It keeps the cursors as drawn (on a selectable row, inside the screen) and where each
  /// click target went, and drops an expired status message.
  @discardableResult
  public func draw(width: Int, height: Int) -> ScreenGrid {
    drawnPosition = session.player.position
    let frame = frame(width: width, height: height)
    layout = frame.layout
    if let cursor = frame.layout.list?.cursor { list.cursor = cursor }
    if case .picker(var picker) = overlay, let cursor = frame.layout.picker {
      picker.cursor = cursor
      overlay = .picker(picker)
    }
    if let expires = status?.expires, now() >= expires { status = nil }
    let png = pictureOutput.usesImages
    if let request = frame.layout.cover { covers.load(request, into: \.player, png: png) }
    if let request = frame.layout.albumCover { covers.load(request, into: \.album, png: png) }
    return frame.grid
  }

  /// What the tab bar, the bottom lines and the overlay are drawn from now.
  private var chromeModel: ChromeModel {
    var shown = status
    if let expires = status?.expires, now() >= expires { shown = nil }
    return ChromeModel(
      tabs: Command.Pane.tabs(inRoom: room != nil), pane: pane, providerName: provider.name,
      snapshot: session.snapshot, status: shown, overlay: overlay, keyMap: keyMap,
      help: helpScope)
  }
}
