import Foundation
import RefrainCore
import XCTest

@testable import RefrainConfig

/// What start-up takes from the configuration: overrides, the lyrics order, the offset.
final class ConfigRuntimeTests: XCTestCase {
  private struct OnlineSource: LyricsSource {
    var kind: LyricsSourceKind { .online }
    func lyrics(for query: LyricsQuery) async throws -> LyricsResult {
      .notFound(reasons: ["not here"])
    }
  }

  private func configuration(_ text: String) -> RefrainConfiguration {
    RefrainConfiguration.parse(text, environment: [:]).configuration
  }

  // MARK: - The environment wins

  func testEnvironmentVariablesOverrideTheFile() {
    let configuration = configuration(
      """
      [online]
      deezer_url = "http://127.0.0.1:1"
      lrclib_url = "http://127.0.0.1:2"
      [audio]
      pulse_server = "tcp:192.168.1.20:4713"
      """)
    XCTAssertEqual(configuration.deezerURL(environment: [:])?.port, 1)
    XCTAssertEqual(configuration.lrclibURL(environment: [:])?.port, 2)
    XCTAssertEqual(configuration.pulseServer(environment: [:]), "tcp:192.168.1.20:4713")
    let environment = [
      "REFRAIN_DEEZER_URL": "http://127.0.0.1:3", "REFRAIN_LRCLIB_URL": "",
      "PULSE_SERVER": "unix:/tmp/pulse",
    ]
    XCTAssertEqual(configuration.deezerURL(environment: environment)?.port, 3)
    XCTAssertNil(configuration.lrclibURL(environment: environment), "set but empty turns it off")
    XCTAssertEqual(configuration.pulseServer(environment: environment), "unix:/tmp/pulse")
    XCTAssertEqual(configuration.deezerURL(environment: ["REFRAIN_DEEZER_URL": "ftp://x"])?.port, 1)
  }

  func testAnEmptyOrInvalidCatalogVariableFallsBackToTheFile() {
    let configuration = configuration("[online]\ndeezer_url = \"http://127.0.0.1:8\"")
    for value in ["", "  ", "file:///etc", "not a url"] {
      XCTAssertEqual(
        configuration.deezerURL(environment: ["REFRAIN_DEEZER_URL": value])?.port, 8, value)
    }
    XCTAssertNil(RefrainConfiguration().deezerURL(environment: [:]), "no address is built in")
    XCTAssertEqual(
      configuration.deezerURL(environment: ["REFRAIN_DEEZER_URL": "http://127.0.0.1:9/api"])?
        .absoluteString, "http://127.0.0.1:9/api", "a path prefix is kept")
  }

  func testAnEmptyOrInvalidLyricsVariableTurnsLookupOff() {
    let configuration = configuration("[online]\nlrclib_url = \"http://127.0.0.1:2\"")
    for value in ["", "  ", "not a url", "ftp://127.0.0.1/", "/just/a/path"] {
      XCTAssertNil(configuration.lrclibURL(environment: ["REFRAIN_LRCLIB_URL": value]), value)
    }
    XCTAssertNil(RefrainConfiguration().lrclibURL(environment: [:]), "no address is built in")
    XCTAssertEqual(
      configuration.lrclibURL(environment: ["REFRAIN_LRCLIB_URL": "http://127.0.0.1:8080/lrclib"])?
        .absoluteString, "http://127.0.0.1:8080/lrclib")
  }

  func testTheBufferVariableWinsAndIsClamped() {
    let configuration = configuration("[audio]\nbuffer_ms = 250")
    XCTAssertEqual(configuration.bufferTarget(environment: [:]), 0.25, accuracy: 1e-9)
    let cases: [(String, Double)] = [("500", 0.5), ("5", 0.02), ("90000", 2), ("soon", 0.25)]
    for (value, expected) in cases {
      XCTAssertEqual(
        configuration.bufferTarget(environment: ["REFRAIN_BUFFER_MS": value]), expected,
        accuracy: 1e-9, value)
    }
  }

  // MARK: - Lyrics

  func testTheResolverAsksTheConfiguredSourcesInOrder() {
    let cache = LyricsCache(directory: URL(fileURLWithPath: "/nonexistent/refrain-lyrics"))
    let standard = RefrainConfiguration().lyricsResolver(cache: cache, online: OnlineSource())
    XCTAssertEqual(standard.sources.map(\.kind), [.sidecar, .embedded, .cache, .online])
    XCTAssertNotNil(standard.cache)

    let reordered = configuration("[lyrics]\nsources = [\"online\", \"sidecar\"]")
      .lyricsResolver(cache: cache, online: OnlineSource(), timeout: 3)
    XCTAssertEqual(reordered.sources.map(\.kind), [.online, .sidecar])
    XCTAssertNil(reordered.cache, "without the cache source nothing is stored")
    XCTAssertEqual(reordered.timeout, 3)

    let offline = RefrainConfiguration().lyricsResolver(cache: nil, online: nil)
    XCTAssertEqual(offline.sources.map(\.kind), [.sidecar, .embedded])
  }

  func testTheGlobalOffsetAddsToTheDocumentsOwn() {
    let document = LRCParser.parse("[offset:+100]\n[00:01.00]one\n")
    let shifted = configuration("[lyrics]\noffset_ms = -250")
      .applyingLyricOffset(to: .found(document, source: .sidecar))
    guard case .found(let result, let source) = shifted else {
      return XCTFail("expected lyrics")
    }
    XCTAssertEqual(result.offsetMs, -150)
    XCTAssertEqual(source, .sidecar)
    XCTAssertEqual(
      RefrainConfiguration().applyingLyricOffset(to: .found(document, source: .cache)),
      .found(document, source: .cache))
    XCTAssertEqual(
      configuration("[lyrics]\noffset_ms = 5").applyingLyricOffset(
        to: .instrumental(source: .online)),
      .instrumental(source: .online))
  }

  // MARK: - The start-up notice

  func testTheNoticeNamesTheFirstProblem() {
    let clean = ConfigLoadResult(
      configuration: RefrainConfiguration(), problems: [], file: URL(fileURLWithPath: "/c"),
      fileExists: true)
    XCTAssertNil(clean.notice)
    let parsed = RefrainConfiguration.parse("[audio]\nbuffer_ms = 1\nmouse = 2\n", file: "/c")
    let troubled = ConfigLoadResult(
      configuration: parsed.configuration, problems: parsed.problems,
      file: URL(fileURLWithPath: "/c"), fileExists: true)
    XCTAssertEqual(
      troubled.notice,
      "config.toml line 2: audio.buffer_ms (and 1 more) — see `refrain config --check`")
  }
}
