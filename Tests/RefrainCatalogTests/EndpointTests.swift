import Foundation
import XCTest

@testable import RefrainCatalog
@testable import RefrainHTTP

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

final class EndpointTests: XCTestCase {
  private func base(_ text: String) throws -> URL {
    try XCTUnwrap(URL(string: text))
  }

  // MARK: - Paths

  func testJoinsThePathToABaseWithoutTrailingSlash() throws {
    let endpoint = Endpoint(baseURL: try base("http://127.0.0.1:8080"), path: "/album/302127")
    XCTAssertEqual(try endpoint.url().absoluteString, "http://127.0.0.1:8080/album/302127")
  }

  func testKeepsTheBasePathPrefixWithOrWithoutTrailingSlash() throws {
    for text in ["http://127.0.0.1:9/api/v1/", "http://127.0.0.1:9/api/v1"] {
      let endpoint = Endpoint(baseURL: try base(text), path: "chart/0")
      XCTAssertEqual(try endpoint.url().absoluteString, "http://127.0.0.1:9/api/v1/chart/0", text)
    }
  }

  func testPathSegmentsArePercentEncoded() throws {
    let endpoint = Endpoint(baseURL: try base("http://127.0.0.1:9/"), path: "/search/a b?c")
    XCTAssertEqual(try endpoint.url().absoluteString, "http://127.0.0.1:9/search/a%20b%3Fc")
  }

  // MARK: - Queries

  func testQueryValuesEncodeSpacesPlusAmpersandQuotesAndSlashes() throws {
    let endpoint = Endpoint(
      baseURL: try base("http://127.0.0.1:9"), path: "/search",
      queryItems: [URLQueryItem(name: "q", value: "AC/DC & \"Queen\"+1=2")])
    XCTAssertEqual(
      try endpoint.url().absoluteString,
      "http://127.0.0.1:9/search?q=AC%2FDC%20%26%20%22Queen%22%2B1%3D2")
  }

  func testQueryItemsKeepTheirOrderAndEncodeUnicode() throws {
    let endpoint = Endpoint(
      baseURL: try base("http://127.0.0.1:9"), path: "/search",
      queryItems: [
        URLQueryItem(name: "q", value: "아이유"), URLQueryItem(name: "index", value: "25"),
        URLQueryItem(name: "flag", value: nil),
      ])
    XCTAssertEqual(
      try endpoint.url().absoluteString,
      "http://127.0.0.1:9/search?q=%EC%95%84%EC%9D%B4%EC%9C%A0&index=25&flag")
  }

  func testNoQueryItemsMeansNoQuestionMark() throws {
    let endpoint = Endpoint(baseURL: try base("http://127.0.0.1:9/?stale=1"), path: "/genre")
    XCTAssertEqual(try endpoint.url().absoluteString, "http://127.0.0.1:9/genre")
  }

  // MARK: - Invalid bases

  func testRejectsBasesThatAreNotHTTP() throws {
    for text in ["file:///tmp/catalog", "ftp://127.0.0.1/", "//127.0.0.1:9/x"] {
      let endpoint = Endpoint(baseURL: try base(text), path: "/chart/0")
      XCTAssertThrowsError(try endpoint.url(), text) { error in
        guard case .invalidURL = error as? NetworkError else {
          return XCTFail("\(text): expected invalidURL, got \(error)")
        }
      }
    }
  }

  // MARK: - Requests

  func testURLRequestCarriesMethodHeadersTimeoutAndUserAgent() throws {
    let endpoint = Endpoint(
      baseURL: try base("http://127.0.0.1:9"), method: .head, path: "/track/1",
      headers: ["Accept-Language": "es"])
    let request = try endpoint.urlRequest(timeout: 3, userAgent: HTTPClient.defaultUserAgent)
    XCTAssertEqual(request.httpMethod, "HEAD")
    XCTAssertEqual(request.timeoutInterval, 3)
    XCTAssertEqual(
      request.value(forHTTPHeaderField: "User-Agent"), "Refrain/0.1 (terminal music player)")
    XCTAssertEqual(request.value(forHTTPHeaderField: "Accept"), "application/json")
    XCTAssertEqual(request.value(forHTTPHeaderField: "Accept-Language"), "es")
  }

  func testCacheKeyDependsOnURLAndLanguage() throws {
    let url = try base("http://127.0.0.1:9")
    let english = Endpoint(baseURL: url, path: "/genre", headers: ["Accept-Language": "en"])
    let spanish = Endpoint(baseURL: url, path: "/genre", headers: ["Accept-Language": "es"])
    let paged = Endpoint(
      baseURL: url, path: "/genre", queryItems: [URLQueryItem(name: "index", value: "1")])
    XCTAssertNotEqual(english.cacheKey, spanish.cacheKey)
    XCTAssertNotEqual(Endpoint(baseURL: url, path: "/genre").cacheKey, paged.cacheKey)
  }
}
