import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// How many connections the room server holds, and for how long one may wait to prove
/// itself: what keeps slow or silent strangers from taking it down.
///
/// A connection is *pending* from its accept until its first request head has arrived with
/// the server's token. Pending connections are capped overall and per remote address, and
/// each has ``headerTimeout`` to send that head; past a cap a new one is refused at once.
/// Every connection, pending or not, counts against ``maxConnections``, which leaves
/// ``reservedDescriptors`` free for the chat store and the library's files.
public struct ConnectionLimits: Sendable, Equatable {
  /// Seconds a connection has to send its first request head (and so its token).
  public var headerTimeout: Double = 10
  /// Connections waiting for their first head, from every address together.
  public var maxPending = 128
  /// Connections waiting for their first head, from one address.
  public var maxPendingPerAddress = 16
  /// Seconds an HTTP keep-alive connection may sit idle between requests.
  public var idleTimeout: Double = 60
  /// Descriptors never used for connections: the chat store, library files, the log.
  public var reservedDescriptors = 64
  /// Every connection at once; ``fitted(toDescriptors:)`` sets it from the process's limit.
  public var maxConnections = 960

  public init() {}

  /// These limits with ``maxConnections`` set to what `descriptors` (the soft
  /// `RLIMIT_NOFILE`) holds after the reserve, and the pending caps no larger than that.
  public func fitted(toDescriptors descriptors: Int) -> ConnectionLimits {
    var limits = self
    limits.maxConnections = max(1, descriptors - reservedDescriptors)
    limits.maxPending = min(maxPending, limits.maxConnections)
    limits.maxPendingPerAddress = min(maxPendingPerAddress, limits.maxPending)
    return limits
  }

  /// Raises the soft descriptor limit to the hard one and returns the soft limit now in
  /// force (unchanged where raising fails or the hard limit is the soft one).
  public static func raiseDescriptorLimit() -> Int {
    var limit = rlimit()
    guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return 1024 }
    if limit.rlim_cur < limit.rlim_max {
      var raised = limit
      raised.rlim_cur = limit.rlim_max
      if setrlimit(Int32(RLIMIT_NOFILE.rawValue), &raised) == 0 { limit = raised }
    }
    // An unlimited hard limit: more than any server here holds.
    return limit.rlim_cur > rlim_t(Int32.max) ? Int(Int32.max) : Int(limit.rlim_cur)
  }
}

/// The connections the server holds now, shared by every event loop: admits a new one
/// within the ``ConnectionLimits`` or says why not.
final class ConnectionBudget: @unchecked Sendable {
  let limits: ConnectionLimits
  private let lock = NSLock()
  private var live = 0
  private var pending = 0
  private var pendingByAddress: [String: Int] = [:]

  init(limits: ConnectionLimits) { self.limits = limits }

  /// Counts a new connection from `address` as live and pending; returns why it is refused
  /// instead (nothing is counted then).
  func admit(from address: String) -> String? {
    lock.lock()
    defer { lock.unlock() }
    if live >= limits.maxConnections {
      return "the room server holds \(limits.maxConnections) connections already"
    }
    if pending >= limits.maxPending {
      return "\(limits.maxPending) connections are already waiting to sign in"
    }
    if pendingByAddress[address, default: 0] >= limits.maxPendingPerAddress {
      return "\(limits.maxPendingPerAddress) connections from this address are already waiting"
    }
    live += 1
    pending += 1
    pendingByAddress[address, default: 0] += 1
    return nil
  }

  /// The connection from `address` presented the token: it no longer counts as pending.
  func signedIn(from address: String) {
    lock.lock()
    defer { lock.unlock() }
    release(address)
  }

  /// The connection from `address` closed; `pending` says whether it never signed in.
  func closed(from address: String, pending stillPending: Bool) {
    lock.lock()
    defer { lock.unlock() }
    live -= 1
    if stillPending { release(address) }
  }

  /// Connections held now, and how many of them are pending.
  var counts: (live: Int, pending: Int) {
    lock.lock()
    defer { lock.unlock() }
    return (live, pending)
  }

  private func release(_ address: String) {
    pending -= 1
    let left = pendingByAddress[address, default: 1] - 1
    pendingByAddress[address] = left > 0 ? left : nil
  }
}
