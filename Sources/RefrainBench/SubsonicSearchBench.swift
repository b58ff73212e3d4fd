import Foundation
import RefrainCatalog
import RefrainCore
import RefrainHTTP
import RefrainSubsonic

/// `refrain-bench subsonic-search`: the Subsonic provider's track search (`search3`), timed
/// in-process with the stored login (`subsonic.json`), so no process start-up is counted.
///
/// Each round asks for one of the queries in turn (a page of `limit` tracks) and times the
/// whole call: building the request, the HTTP exchange on loopback, decoding the JSON and
/// mapping it to catalog tracks. The first `warmup` calls are not counted. With
/// `transportOnly`, each call is the same `search3` request sent by the same kind of HTTP
/// client the provider makes, its body left undecoded: the provider's time less that one
/// is what decoding and mapping cost.
enum SubsonicSearchBench {
  /// Per-call times and start times in nanoseconds, and the tracks (or bytes) returned.
  final class Outcome: @unchecked Sendable {
    var times: [Double] = []
    var starts: [UInt64] = []
    var items = 0
    var bytes = 0
    var failure: String?
  }

  static func run(queries: [String], iterations: Int, warmup: Int, limit: Int, transportOnly: Bool)
  {
    guard let account = SubsonicAccountFile.standard().load() else {
      FileHandle.standardError.write(Data("refrain-bench subsonic-search: not logged in\n".utf8))
      exit(1)
    }
    let provider = SubsonicCatalogProvider(account: account)
    let api = SubsonicAPI(account: account)
    let http = SubsonicClient.httpClient()
    let outcome = Outcome()
    let done = DispatchSemaphore(value: 0)
    Task.detached {
      do {
        for round in 0..<(warmup + iterations) {
          let query = queries[round % queries.count]
          let start = nowNs()
          var items = 0
          var bytes = 0
          if transportOnly {
            // The parameters the provider sends for a page of tracks, in its order.
            let endpoint = api.endpoint(
              "search3",
              [
                ("query", query), ("artistCount", "0"), ("albumCount", "0"),
                ("songCount", String(limit)), ("songOffset", "0"),
              ])
            bytes = try await http.data(for: endpoint).count
          } else {
            items = try await provider.search(query, kind: .track, offset: 0, limit: limit).items
              .count
          }
          let end = nowNs()
          if round >= warmup {
            outcome.times.append(Double(end - start))
            outcome.starts.append(start)
            outcome.items += items
            outcome.bytes += bytes
          }
        }
      } catch {
        outcome.failure = "\(error)"
      }
      done.signal()
    }
    done.wait()
    if let failure = outcome.failure {
      FileHandle.standardError.write(Data("refrain-bench subsonic-search: \(failure)\n".utf8))
      exit(1)
    }
    let sorted = outcome.times.sorted()
    func percentile(_ p: Double) -> Double? {
      guard !sorted.isEmpty else { return nil }
      return sorted[min(sorted.count - 1, Int((p / 100 * Double(sorted.count)).rounded(.up)) - 1)]
    }
    print(
      json(
        [
          "benchmark": "subsonic-search",
          "mode": transportOnly ? "transport" : "provider",
          "iterations": iterations,
          "queries": queries.count,
          "limit": limit,
          "items": outcome.items,
          "bytes": outcome.bytes,
          "ns_p50": percentile(50),
          "ns_p99": percentile(99),
          "ns_min": sorted.first,
          "ns": outcome.times,
          "start_ns": outcome.starts.map { Double($0) },
        ] as KeyValuePairs<String, Any?>))
  }
}
