import Foundation
import RefrainCatalog
import RefrainCore

/// `refrain-bench subsonic-search`: the Subsonic provider's track search (`search3`), timed
/// in-process with the stored login (`subsonic.json`), so no process start-up is counted.
///
/// Each round asks for one of the queries in turn (a page of `limit` tracks) and times the
/// whole call: building the request, the HTTP exchange on loopback, decoding the JSON and
/// mapping it to catalog tracks. The first `warmup` calls are not counted.
enum SubsonicSearchBench {
  /// Per-call times in nanoseconds and the total number of tracks the calls returned.
  final class Outcome: @unchecked Sendable {
    var times: [Double] = []
    var items = 0
    var failure: String?
  }

  static func run(queries: [String], iterations: Int, warmup: Int, limit: Int) {
    guard let account = SubsonicAccountFile.standard().load() else {
      FileHandle.standardError.write(Data("refrain-bench subsonic-search: not logged in\n".utf8))
      exit(1)
    }
    let provider = SubsonicCatalogProvider(account: account)
    let outcome = Outcome()
    let done = DispatchSemaphore(value: 0)
    Task.detached {
      do {
        for round in 0..<(warmup + iterations) {
          let query = queries[round % queries.count]
          let start = nowNs()
          let page = try await provider.search(query, kind: .track, offset: 0, limit: limit)
          let end = nowNs()
          if round >= warmup {
            outcome.times.append(Double(end - start))
            outcome.items += page.items.count
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
          "iterations": iterations,
          "queries": queries.count,
          "limit": limit,
          "items": outcome.items,
          "ns_p50": percentile(50),
          "ns_p99": percentile(99),
          "ns_min": sorted.first,
          "ns": outcome.times,
        ] as KeyValuePairs<String, Any?>))
  }
}
