import RefrainCore

/// Lyrics on the audible clock: which line is current, when it changes, seek-on-select.
extension PlaybackPresenter {
  /// Shows `document` for the current track with the user's offset; `nil` clears the lyrics.
  func setLyrics(_ document: LyricsDocument?, userOffsetMs: Int = 0) {
    lyricOffsetMs = userOffsetMs
    lyrics = document.map { LyricFollower(document: $0, userOffsetMs: userOffsetMs) }
  }

  /// The line that became current at the audible position, or `nil` when nothing changed.
  ///
  /// After a seek, a new track or a nudge, the current line is reported again.
  func lyricChange() -> LyricFollower.Change? {
    guard isTrackLoaded else { return nil }
    return lyrics?.update(position: player.position)
  }

  /// The audible position at which the highlighted line changes next, if any.
  func nextLyricChange() -> Double? {
    guard isTrackLoaded else { return nil }
    return lyrics?.nextChange(after: player.position)
  }

  /// Seeks to the start of lyric line `index` (its time minus the effective offset).
  func seekToLine(_ index: Int) {
    guard let timeline = lyrics?.timeline, timeline.isSynced, timeline.count > 0 else { return }
    seek(to: timeline.seekTarget(forLine: index))
  }

  /// Shifts the lyrics by `deltaMs` (positive shows lines earlier) and returns the new offset.
  ///
  /// The caller saves the value per track.
  @discardableResult
  func nudgeLyrics(by deltaMs: Int) -> Int {
    lyricOffsetMs += deltaMs
    if let document = lyrics?.document {
      lyrics = LyricFollower(document: document, userOffsetMs: lyricOffsetMs)
    }
    return lyricOffsetMs
  }
}
