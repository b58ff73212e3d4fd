import Foundation

/// A small, seedable random number generator for shuffling the queue.
///
/// Refrain's shuffle must be reproducible in tests and cheap to copy with the
/// queue, so this is a value type with 64 bits of state (the SplitMix64 mixing
/// function). It is not suitable for anything security related.
public struct SeededRandom: RandomNumberGenerator, Sendable, Equatable {
  private var state: UInt64

  /// Creates a generator whose sequence is fully determined by `seed`.
  public init(seed: UInt64) {
    state = seed
  }

  /// Creates a generator seeded from the system's random source.
  public init() {
    var system = SystemRandomNumberGenerator()
    state = system.next()
  }

  /// Returns the next 64 random bits.
  public mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var mixed = state
    mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
    mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
    return mixed ^ (mixed >> 31)
  }
}
