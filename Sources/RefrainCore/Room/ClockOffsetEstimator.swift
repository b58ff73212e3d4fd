/// The offset between a member's clock and the room clock, estimated NTP style from `time`
/// probes: of the recent probes, the few with the smallest round trip are trusted.
///
/// Times are milliseconds. A probe leaves at member time `t0`, is stamped by the server
/// with room time `server`, and returns at member time `t3`; assuming the two legs took
/// equally long, the room clock read `server` at member time `(t0 + t3) / 2`.
public struct ClockOffsetEstimator: Sendable, Equatable {
  /// One answered probe.
  public struct Sample: Sendable, Equatable {
    /// The round trip, ms.
    public var roundTrip: Double
    /// Room clock minus member clock, ms.
    public var offset: Double
    /// The member's clock when the answer arrived, ms.
    public var receivedAt: Double
  }

  /// How many of the recent probes are kept.
  public let capacity: Int
  /// How many of the kept probes with the smallest round trip make the estimate.
  public let best: Int
  public private(set) var samples: [Sample] = []

  public init(capacity: Int = 16, best: Int = 3) {
    self.capacity = max(1, capacity)
    self.best = max(1, best)
  }

  /// Adds a probe's answer; a probe that came back before it left is ignored.
  public mutating func add(t0: Double, server: Double, t3: Double) {
    guard t3 >= t0, t0.isFinite, server.isFinite, t3.isFinite else { return }
    samples.append(
      Sample(roundTrip: t3 - t0, offset: server - (t0 + t3) / 2, receivedAt: t3))
    if samples.count > capacity { samples.removeFirst(samples.count - capacity) }
  }

  /// The trusted probes: the ``best`` with the smallest round trip.
  private var trusted: [Sample] {
    Array(samples.sorted { $0.roundTrip < $1.roundTrip }.prefix(best))
  }

  /// Room clock minus member clock (ms): the median of the trusted probes' offsets; `nil`
  /// before the first answer.
  public var offset: Double? {
    let offsets = trusted.map(\.offset).sorted()
    guard !offsets.isEmpty else { return nil }
    let middle = offsets.count / 2
    return offsets.count % 2 == 1 ? offsets[middle] : (offsets[middle - 1] + offsets[middle]) / 2
  }

  /// The smallest round trip seen among the kept probes (ms), the bound on the offset's
  /// error being half of it.
  public var roundTrip: Double? { samples.map(\.roundTrip).min() }

  /// The room clock (ms) at member time `local` (ms).
  public func roomTime(atLocal local: Double) -> Double? { offset.map { local + $0 } }
}
