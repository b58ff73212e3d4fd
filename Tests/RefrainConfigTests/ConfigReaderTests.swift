import Foundation
import RefrainCore
import XCTest

@testable import RefrainConfig

/// Reading config.toml: every key, and what happens to mistakes.
final class ConfigReaderTests: XCTestCase {
  private let environment = ["HOME": "/home/ada"]

  private func read(_ text: String) -> (
    configuration: RefrainConfiguration, problems: [ConfigProblem]
  ) {
    RefrainConfiguration.parse(text, file: "/cfg/config.toml", environment: environment)
  }

  // MARK: - Defaults

  func testAnEmptyFileGivesTheDefaults() {
    let result = read("")
    XCTAssertEqual(result.configuration, RefrainConfiguration())
    XCTAssertEqual(result.problems, [])
  }

  func testTheDefaultsAreTheDocumentedOnes() {
    let defaults = RefrainConfiguration()
    XCTAssertEqual(defaults.provider, .demo)
    XCTAssertEqual(defaults.musicFolders, [])
    XCTAssertEqual(defaults.output, .pulse)
    XCTAssertNil(defaults.pulseServer)
    XCTAssertNil(defaults.pulseSink)
    XCTAssertEqual(defaults.bufferMs, 1000)
    XCTAssertEqual(defaults.bufferTarget, 1.0, accuracy: 1e-9)
    XCTAssertEqual(defaults.lyricsSources, [.sidecar, .embedded, .cache, .online])
    XCTAssertEqual(defaults.lyricOffsetMs, 0)
    XCTAssertNil(defaults.deezerURL)
    XCTAssertNil(defaults.lrclibURL)
    XCTAssertTrue(defaults.colors)
    XCTAssertEqual(defaults.theme, .standard)
    XCTAssertTrue(defaults.usesColors)
    XCTAssertEqual(defaults.coverArt, .auto)
    XCTAssertFalse(defaults.mouse)
    XCTAssertEqual(defaults.lyricHighlight, .line)
    XCTAssertTrue(defaults.mpris)
    XCTAssertFalse(defaults.notify)
    XCTAssertNil(defaults.listenBrainzToken)
    XCTAssertNil(defaults.listenBrainzTokenFile)
    XCTAssertNil(defaults.lastFMAPIKey)
    XCTAssertNil(defaults.lastFMSecret)
    XCTAssertEqual(defaults.keyBindings, [])
  }

  // MARK: - ReplayGain

  func testReplayGainSettingsAreReadAndAnUnknownModeIsRejected() {
    XCTAssertEqual(RefrainConfiguration().replayGain, ReplayGainSettings())
    let good = read(
      """
      [playback]
      replaygain = "album"
      replaygain_preamp = -2.5
      replaygain_clip = false
      """)
    XCTAssertEqual(good.problems, [])
    XCTAssertEqual(
      good.configuration.replayGain,
      ReplayGainSettings(mode: .album, preamp: -2.5, preventClipping: false))
    XCTAssertEqual(read("[playback]\nreplaygain_preamp = 3").configuration.replayGain.preamp, 3)
    let bad = read(
      """
      [playback]
      replaygain = "loud"
      replaygain_preamp = 40.0
      """)
    XCTAssertEqual(bad.configuration.replayGain, ReplayGainSettings())
    XCTAssertEqual(bad.problems.count, 2)
    let text = bad.problems.map(\.description).joined(separator: "\n")
    XCTAssertTrue(text.contains("playback.replaygain: must be one of"), text)
    XCTAssertTrue(text.contains("\"auto\""), text)
    XCTAssertTrue(text.contains("playback.replaygain_preamp: must be from -15.0 to 15.0 dB"), text)
  }

  // MARK: - Every key

  func testEveryKeyIsRead() {
    let result = read(
      """
      [catalog]
      provider = "local"
      music_folders = ["~/Music", "/srv/music", "~"]

      [audio]
      output = "null"
      pulse_server = "tcp:192.168.1.20:4713"
      pulse_sink = "alsa_output.usb"
      buffer_ms = 200

      [lyrics]
      sources = ["online", "sidecar"]
      offset_ms = -250

      [online]
      deezer_url = "http://127.0.0.1:8080/api"
      lrclib_url = "https://127.0.0.1:9090"

      [display]
      colors = false
      theme = "mono"
      cover_art = false
      mouse = true
      lyrics_highlight = "marker"

      [desktop]
      mpris = false
      notify = true

      [scrobble]
      listenbrainz_token = " 0123-abcd "
      listenbrainz_token_file = "~/.config/refrain/listenbrainz"
      lastfm_api_key = "k3y"
      lastfm_secret = "s3cret"
      """)
    XCTAssertEqual(result.problems, [])
    let configuration = result.configuration
    XCTAssertEqual(configuration.provider, .local)
    XCTAssertEqual(configuration.musicFolders, ["/home/ada/Music", "/srv/music", "/home/ada"])
    XCTAssertEqual(configuration.output, .null)
    XCTAssertEqual(configuration.pulseServer, "tcp:192.168.1.20:4713")
    XCTAssertEqual(configuration.pulseSink, "alsa_output.usb")
    XCTAssertEqual(configuration.bufferMs, 200)
    XCTAssertEqual(configuration.lyricsSources, [.online, .sidecar])
    XCTAssertEqual(configuration.lyricOffsetMs, -250)
    XCTAssertEqual(configuration.deezerURL?.absoluteString, "http://127.0.0.1:8080/api")
    XCTAssertEqual(configuration.lrclibURL?.absoluteString, "https://127.0.0.1:9090")
    XCTAssertFalse(configuration.colors)
    XCTAssertEqual(configuration.theme, .mono)
    XCTAssertFalse(configuration.usesColors)
    XCTAssertEqual(configuration.coverArt, .off, "false, from before the modes: off")
    XCTAssertTrue(configuration.mouse)
    XCTAssertEqual(configuration.lyricHighlight, .marker)
    XCTAssertFalse(configuration.mpris)
    XCTAssertTrue(configuration.notify)
    XCTAssertEqual(configuration.listenBrainzToken?.revealed, "0123-abcd")
    XCTAssertEqual(configuration.listenBrainzTokenFile, "/home/ada/.config/refrain/listenbrainz")
    XCTAssertEqual(configuration.lastFMAPIKey?.revealed, "k3y")
    XCTAssertEqual(configuration.lastFMSecret?.revealed, "s3cret")
  }

  func testEmptyStringsMeanUnset() {
    let result = read(
      """
      [audio]
      pulse_server = "  "
      pulse_sink = ""
      [online]
      deezer_url = ""
      """)
    XCTAssertEqual(result.problems, [])
    XCTAssertNil(result.configuration.pulseServer)
    XCTAssertNil(result.configuration.pulseSink)
    XCTAssertNil(result.configuration.deezerURL)
  }

  func testDottedKeysAndInlineTablesWorkToo() {
    let result = read(
      """
      audio.buffer_ms = 100
      display = { mouse = true }
      """)
    XCTAssertEqual(result.problems, [])
    XCTAssertEqual(result.configuration.bufferMs, 100)
    XCTAssertTrue(result.configuration.mouse)
  }

  func testChoicesIgnoreCase() {
    let result = read("[catalog]\nprovider = \"Deezer\"")
    XCTAssertEqual(result.problems, [])
    XCTAssertEqual(result.configuration.provider, .deezer)
  }

  func testBufferBoundsAreInclusive() {
    XCTAssertEqual(read("[audio]\nbuffer_ms = 20").configuration.bufferMs, 20)
    XCTAssertEqual(read("[audio]\nbuffer_ms = 2000").configuration.bufferMs, 2000)
    XCTAssertEqual(read("[lyrics]\nsources = []").configuration.lyricsSources, [])
  }

  // MARK: - Bad values keep their default

  func testABadValueNamesFileLineAndKeyAndKeepsTheDefault() {
    let result = read(
      """
      # Refrain
      [audio]
      output = "null"

      buffer_ms = 5000
      """)
    XCTAssertEqual(result.configuration.bufferMs, 1000)
    XCTAssertEqual(result.configuration.output, .null, "the other keys still apply")
    XCTAssertEqual(result.problems.count, 1)
    let problem = result.problems[0]
    XCTAssertEqual(problem.file, "/cfg/config.toml")
    XCTAssertEqual(problem.line, 5)
    XCTAssertEqual(problem.key, "audio.buffer_ms")
    XCTAssertEqual(
      problem.description,
      "/cfg/config.toml:5: audio.buffer_ms: must be from 20 to 2000 (found 5000); "
        + "using the default, 1000")
  }

  func testEveryKindOfBadValueIsReported() {
    let cases: [(text: String, key: String, fragment: String)] = [
      ("[catalog]\nprovider = \"tidal\"", "catalog.provider", "must be one of"),
      ("[catalog]\nprovider = 3", "catalog.provider", "found an integer"),
      ("[catalog]\nmusic_folders = \"~/Music\"", "catalog.music_folders", "array"),
      ("[catalog]\nmusic_folders = [\"Music\"]", "catalog.music_folders", "absolute"),
      ("[catalog]\nmusic_folders = [1]", "catalog.music_folders", "only folder paths"),
      ("[audio]\noutput = \"alsa\"", "audio.output", "\"pulse\", \"null\""),
      ("[audio]\npulse_server = 4713", "audio.pulse_server", "string"),
      ("[audio]\npulse_sink = \"a\\u0007b\"", "audio.pulse_sink", "control characters"),
      ("[audio]\nbuffer_ms = 19", "audio.buffer_ms", "from 20 to 2000"),
      ("[audio]\nbuffer_ms = 50.5", "audio.buffer_ms", "decimal number"),
      ("[audio]\nbuffer_ms = \"50\"", "audio.buffer_ms", "a string"),
      ("[lyrics]\nsources = [\"genius\"]", "lyrics.sources", "not a lyrics source"),
      ("[lyrics]\nsources = [\"cache\", \"cache\"]", "lyrics.sources", "twice"),
      ("[lyrics]\noffset_ms = 60001", "lyrics.offset_ms", "-60000 to 60000"),
      ("[online]\ndeezer_url = \"ftp://127.0.0.1\"", "online.deezer_url", "http://"),
      ("[online]\nlrclib_url = \"not a url\"", "online.lrclib_url", "http://"),
      ("[display]\ncolors = \"yes\"", "display.colors", "true or false"),
      ("[display]\ntheme = \"solarized\"", "display.theme", "\"default\", \"mono\""),
      (
        "[display]\ncover_art = \"sixel\"", "display.cover_art",
        "\"auto\", \"blocks\", \"kitty\", \"iterm\", \"off\""
      ),
      ("[display]\nmouse = 2024-01-01", "display.mouse", "a date"),
      (
        "[display]\nlyrics_highlight = \"glow\"", "display.lyrics_highlight", "\"line\", \"marker\""
      ),
      ("[desktop]\nmpris = \"yes\"", "desktop.mpris", "true or false"),
      ("[desktop]\nnotify = 1", "desktop.notify", "found an integer"),
      ("[scrobble]\nlistenbrainz_token = 42", "scrobble.listenbrainz_token", "string"),
      ("[scrobble]\nlastfm_api_key = \"a b\"", "scrobble.lastfm_api_key", "one word"),
      ("[scrobble]\nlastfm_secret = \"a\\u0007\"", "scrobble.lastfm_secret", "control"),
      (
        "[scrobble]\nlistenbrainz_token_file = \"token.txt\"", "scrobble.listenbrainz_token_file",
        "absolute path"
      ),
      ("audio = 5", "audio", "must be a table"),
    ]
    for (text, key, fragment) in cases {
      let result = read(text)
      XCTAssertEqual(result.configuration, RefrainConfiguration(), text)
      XCTAssertEqual(result.problems.count, 1, text)
      XCTAssertEqual(result.problems.first?.key, key, text)
      XCTAssertEqual(result.problems.first?.line, text.hasPrefix("[") ? 2 : 1, text)
      XCTAssertTrue(
        result.problems.first?.message.contains(fragment) ?? false,
        "\(text): \(result.problems.first?.message ?? "no problem")")
    }
  }

  func testEmptyCredentialsMeanOff() {
    let result = read(
      """
      [scrobble]
      listenbrainz_token = ""
      listenbrainz_token_file = " "
      lastfm_api_key = "key"
      lastfm_secret = ""
      """)
    XCTAssertEqual(result.problems, [])
    var expected = RefrainConfiguration()
    expected.lastFMAPIKey = SecretText("key")
    XCTAssertEqual(result.configuration, expected)
    XCTAssertNil(result.configuration.lastFMCredentials, "Last.fm needs both")
  }

  func testCredentialsNeverAppearInProblemsOrPrintedConfiguration() {
    let secret = "hunter2 with-spaces-so-it-is-refused"
    let result = read("[scrobble]\nlastfm_secret = \"\(secret)\"\nlistenbrainz_token = \"tok3n\"")
    XCTAssertEqual(result.problems.count, 1)
    XCTAssertFalse(result.problems.description.contains("hunter2"), result.problems.description)
    var dumped = ""
    dump(result.configuration, to: &dumped)
    let printed = [
      dumped, String(describing: result.configuration), String(reflecting: result.configuration),
      "\(result.configuration.listenBrainzToken as Any)",
    ]
    for text in printed {
      XCTAssertFalse(text.contains("tok3n"), text)
    }
    XCTAssertEqual(result.configuration.listenBrainzToken?.description, "<redacted>")
  }

  func testMessagesShowStrangeTextSafely() {
    let long = String(repeating: "x", count: 100)
    let result = read("[catalog]\nprovider = \"\(long)\\u001b[2J\"")
    let message = result.problems.first?.message ?? ""
    XCTAssertFalse(message.contains("\u{1B}"))
    XCTAssertTrue(message.contains("…"))
  }

  func testProblemsPrintNoControlCharacters() {
    for text in ["\"\\u001b[2J\" = 1\n", "x = \"\u{1B}]0;title\u{7}\"\n", "\u{1B}[2J = 1"] {
      let problems = read(text).problems
      XCTAssertEqual(problems.count, 1, text)
      for problem in problems {
        XCTAssertFalse(
          problem.description.unicodeScalars.contains { $0.properties.generalCategory == .control },
          problem.description)
      }
    }
  }

  // MARK: - Unknown keys

  func testUnknownKeysAreReportedWithASuggestion() {
    let result = read(
      """
      volume = 3
      [display]
      colours = false
      [audoi]
      x = 1
      """)
    XCTAssertTrue(result.configuration.colors)
    XCTAssertEqual(result.problems.map(\.key), ["volume", "display.colours", "audoi"])
    XCTAssertEqual(result.problems.map(\.line), [1, 3, 4])
    guard result.problems.count == 3 else { return }
    XCTAssertFalse(result.problems[0].message.contains("did you mean"))
    XCTAssertTrue(result.problems[1].message.contains("did you mean display.colors?"))
    XCTAssertTrue(result.problems[2].message.contains("did you mean audio?"))
  }

  func testProblemsComeInFileOrder() {
    let result = read(
      """
      [display]
      theme = "dark"
      [audio]
      buffer_ms = 1
      [catalog]
      provider = "x"
      """)
    XCTAssertEqual(result.problems.map(\.line), [2, 4, 6])
  }

  // MARK: - Syntax errors

  func testASyntaxErrorNamesFileAndLineAndKeepsEveryDefault() {
    let result = read(
      """
      [audio]
      output = "null"
      buffer_ms = = 3
      """)
    XCTAssertEqual(result.configuration, RefrainConfiguration())
    XCTAssertEqual(result.problems.count, 1)
    XCTAssertEqual(result.problems[0].file, "/cfg/config.toml")
    XCTAssertEqual(result.problems[0].line, 3)
    XCTAssertNil(result.problems[0].key)
    XCTAssertTrue(result.problems[0].message.hasPrefix("syntax error at column"))
  }

  func testHeadersThatWouldTripTheParserAreSyntaxErrors() {
    for text in [
      "[[[1]]]", "[[[a]]", "[[[]]", "[[=", "[=]", "[.x]", "x = 1\n[\n", "[ \r\n", "[[ {",
      "\u{FEFF}[+]",
    ] {
      let result = read(text)
      XCTAssertEqual(result.configuration, RefrainConfiguration(), text)
      XCTAssertEqual(result.problems.count, 1, text)
      XCTAssertEqual(result.problems.first?.line, text.hasPrefix("x") ? 2 : 1, text)
    }
    XCTAssertNil(ParserTrapCheck.firstTrap(in: "[audio]\n[[x]]\n[ \"a\" ]\n[ [\n["))
  }

  func testArraysThatWouldTripTheParserAreSyntaxErrors() {
    for text in [
      "a = [}]", "a = [1,\n# note ]\n }]", "a = [\u{2028}1]", "a = 1\u{85}", "a = { b = [ , }",
    ] {
      let result = read(text)
      XCTAssertEqual(result.problems.count, 1, text)
      XCTAssertTrue(result.problems.first?.message.hasPrefix("syntax error") ?? false, text)
    }
    XCTAssertEqual(
      ParserTrapCheck.firstTrap(in: "a = [1,\n\n }]")?.line, 3, "the line of the brace")
    let safe = [
      #"a = "[}""#, "a = '[, }'", "# [}\n", "a = \"\"\"\n[}\n\"\"\"", "a = '''\n, }'''",
      #"a = "\"[}""#, "a = \"x\u{2028}y\"", "a = { b = [1, 2] }", #"a = [""""""""]"#,
      "a = [\n[{ b = 1 }],\n[+1],\n]",
    ]
    for text in safe {
      XCTAssertNil(ParserTrapCheck.firstTrap(in: text), text)
    }
  }

  func testADuplicateKeyIsASyntaxError() {
    let result = read("[audio]\nbuffer_ms = 30\nbuffer_ms = 40\n")
    XCTAssertEqual(result.problems.map(\.line), [3])
    XCTAssertEqual(result.configuration.bufferMs, 1000)
  }

  func testANulCharacterIsReportedWithItsLine() {
    let result = read("[audio]\n\nbuffer_ms = 30\0\n")
    XCTAssertEqual(result.problems.map(\.line), [3])
    XCTAssertEqual(result.configuration, RefrainConfiguration())
  }

  func testAKeyHoldingAnEscapedNulIsSkipped() {
    let result = read("[audio]\n\"a\\u0000b\" = 1\nbuffer_ms = 30\n")
    XCTAssertEqual(result.configuration.bufferMs, 30)
    XCTAssertEqual(result.problems.count, 1)
    XCTAssertTrue(result.problems[0].message.contains("NUL"))
  }

  // MARK: - Text forms

  func testWindowsLineEndingsAndAByteOrderMarkAreRead() {
    let result = read("\u{FEFF}[audio]\r\n\r\nbuffer_ms = 1\r\noutput = \"null\"\r\n")
    XCTAssertEqual(result.configuration.output, .null)
    XCTAssertEqual(result.problems.map(\.line), [3])
  }

  func testTheLineLocatorFollowsTablesAndQuotes() {
    let locator = ConfigLineLocator(
      text: """
        [keys]
        "ctrl-d" = "pagedown"
        [ keys . "lists" ]
          J = "down"
        audio.buffer_ms = 3
        """)
    XCTAssertEqual(locator.line(of: "keys.ctrl-d"), 2)
    XCTAssertEqual(locator.line(of: "keys.lists.J"), 4)
    XCTAssertEqual(locator.line(of: "keys.lists.audio.buffer_ms"), 5)
    XCTAssertEqual(locator.line(of: "keys.lists.missing"), 3)
    XCTAssertNil(locator.line(of: "display.mouse"))
  }

  func testSuggestionsNeedACloseMatch() {
    XCTAssertEqual(
      ConfigSuggestion.closest(to: "audio.bufer_ms", among: ["audio.buffer_ms", "audio.output"]),
      "audio.buffer_ms")
    XCTAssertNil(ConfigSuggestion.closest(to: "volume", among: ["audio.buffer_ms"]))
  }
}

/// `display.cover_art` takes a mode; the old true and false still read.
final class CoverArtSettingTests: XCTestCase {
  func testEachModeReadsAndTrueMeansAuto() {
    for mode in CoverArtMode.allCases {
      let result = RefrainConfiguration.parse(
        "[display]\ncover_art = \"\(mode.rawValue)\"", file: "/cfg/config.toml",
        environment: ["HOME": "/home/ada"])
      XCTAssertEqual(result.configuration.coverArt, mode)
      XCTAssertTrue(result.problems.isEmpty)
    }
    let old = RefrainConfiguration.parse(
      "[display]\ncover_art = true", file: "/cfg/config.toml", environment: [:])
    XCTAssertEqual(old.configuration.coverArt, .auto)
  }
}
