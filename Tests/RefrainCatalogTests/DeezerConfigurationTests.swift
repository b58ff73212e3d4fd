import Foundation
import RefrainCore
import XCTest

@testable import RefrainCatalog
@testable import RefrainDeezer
@testable import RefrainHTTP

final class DeezerConfigurationTests: XCTestCase {
  // MARK: - Base URL

  func testWithoutAnAddressEveryCallSaysHowToConfigure() async {
    let provider = DeezerCatalogProvider(baseURL: nil, environment: [:], diskCache: false)
    XCTAssertNil(provider.baseURL)
    let expected = CatalogError.unavailable(DeezerCatalogProvider.notConfiguredMessage)
    let track = CatalogTrack(id: "1", provider: "deezer", title: "x")
    let errors: [CatalogError?] = [
      await catalogError { try await provider.home() },
      await catalogError { try await provider.search("x", kind: .album, offset: 0, limit: 5) },
      await catalogError { try await provider.album(id: "1") },
      await catalogError { try await provider.artist(id: "1") },
      await catalogError { try await provider.playlist(id: "1", offset: 0, limit: 5) },
      await catalogError { try await provider.genre(id: "1") },
      await catalogError { try await provider.streamURL(for: track) },
    ]
    for error in errors { XCTAssertEqual(error, expected) }
    XCTAssertTrue(expected.description.contains("REFRAIN_DEEZER_URL"))
  }

  func testTheClientSettingsFollowDeezersLimits() {
    let configuration = DeezerCatalogProvider.clientConfiguration()
    XCTAssertEqual(configuration.rateLimit, HTTPClient.RateLimit(requests: 50, per: 5))
    XCTAssertEqual(configuration.userAgent, "Refrain/0.1 (terminal music player)")
    XCTAssertGreaterThan(configuration.cacheTTL, 0)
    XCTAssertLessThan(configuration.cacheTTL, 900, "cached previews must not outlive their 15 min")
  }

  // MARK: - Error bodies

  func testErrorBodiesAreRecognisedInEveryShape() {
    XCTAssertEqual(
      DeezerErrors.parse(
        Data(#"{"error":{"type":"DataException","message":"no data","code":800}}"#.utf8)),
      APIError(type: "DataException", message: "no data", code: 800))
    XCTAssertEqual(
      DeezerErrors.parse(
        Data(#"{"error":{"type":"Exception","message":"An error has occured"}}"#.utf8)),
      APIError(type: "Exception", message: "An error has occured", code: nil))
    XCTAssertEqual(
      DeezerErrors.parse(Data(#"{"error":"Not Found"}"#.utf8)),
      APIError(type: "Exception", message: "Not Found", code: nil))
    XCTAssertEqual(
      DeezerErrors.parse(Data(#"{"error":{"type":"Exception","message":"q","code":"4"}}"#.utf8))?
        .code, 4)
    XCTAssertNil(DeezerErrors.parse(Data(#"{"data":[],"total":0}"#.utf8)))
    XCTAssertNil(DeezerErrors.parse(Data("[1,2]".utf8)))
    XCTAssertNil(DeezerErrors.parse(Data("<html>".utf8)))
  }

  func testOnlyQuotaAndBusyErrorsAreRetried() {
    let parser = DeezerErrors.parser
    XCTAssertTrue(parser.isRetryable(APIError(type: "Exception", message: "", code: 4)))
    XCTAssertTrue(parser.isRetryable(APIError(type: "Exception", message: "", code: 700)))
    XCTAssertFalse(parser.isRetryable(APIError(type: "DataException", message: "", code: 800)))
    XCTAssertFalse(parser.isRetryable(APIError(type: "Exception", message: "", code: nil)))
    XCTAssertTrue(parser.isQuota(APIError(type: "Exception", message: "", code: 4)))
  }

  func testNetworkErrorsBecomeCatalogErrors() {
    func mapped(_ error: NetworkError, _ item: String?) -> CatalogError? {
      DeezerErrors.catalogError(error, item: item) as? CatalogError
    }
    XCTAssertEqual(
      mapped(.apiError(type: "DataException", message: "no data", code: 800), "album 1"),
      .notFound("album 1"))
    XCTAssertEqual(mapped(.httpStatus(code: 404, body: ""), "album 1"), .notFound("album 1"))
    XCTAssertEqual(
      mapped(
        .apiError(type: "ParameterException", message: "Wrong parameter", code: 500), "genre 1"),
      .notFound("genre 1"))
    guard case .unavailable(let why) = mapped(.timeout, nil) else { return XCTFail() }
    XCTAssertTrue(why.contains("try again"))
    XCTAssertTrue(DeezerErrors.catalogError(.cancelled, item: nil) is CancellationError)
  }
}
