import Foundation

/// Runs Refrain's background work (catalog loads, searches, lyrics lookups and their time
/// limits) on a few threads of Refrain's own.
///
/// Swift's global executor on Linux is libdispatch's thread pool, whose monitor wakes the
/// process once a second for as long as it runs once the pool has been used. Tasks that
/// prefer this executor, and time limits set with ``schedule(after:_:)``, keep a paused
/// player asleep: an idle worker waits without a timeout unless a time limit is pending.
/// Several workers share the jobs, so one blocked job neither stalls the others nor holds
/// back a time limit.
public final class BackgroundExecutor: TaskExecutor, @unchecked Sendable {
  /// The process's background executor.
  public static let shared = BackgroundExecutor(workers: 3)

  private struct Timer {
    var id: Int
    var due: Double
    var action: @Sendable () -> Void
  }

  private let condition = NSCondition()
  private var jobs: [UnownedJob] = []
  private var timers: [Timer] = []
  private var nextTimerID = 1

  private init(workers: Int) {
    for index in 0..<max(1, workers) {
      let thread = Thread { [self] in
        nameCurrentThread("refrain-bg-\(index)")
        work()
      }
      thread.start()
    }
  }

  public func enqueue(_ job: consuming ExecutorJob) {
    let job = UnownedJob(job)
    condition.lock()
    jobs.append(job)
    condition.signal()
    condition.unlock()
  }

  /// Runs `action` on a background thread after `seconds`; returns an ID for ``cancel(_:)``.
  @discardableResult
  public func schedule(after seconds: Double, _ action: @escaping @Sendable () -> Void) -> Int {
    condition.lock()
    defer { condition.unlock() }
    let id = nextTimerID
    nextTimerID += 1
    let due = ProcessInfo.processInfo.systemUptime + max(0, seconds)
    timers.append(Timer(id: id, due: due, action: action))
    timers.sort { $0.due < $1.due }
    condition.broadcast()  // a waiting worker may need to wake earlier now
    return id
  }

  /// Forgets a scheduled action that has not run yet.
  public func cancel(_ id: Int) {
    condition.lock()
    let count = timers.count
    timers.removeAll { $0.id == id }
    // A worker waiting for this one's time re-reads the list now, not at that time.
    if timers.count != count { condition.broadcast() }
    condition.unlock()
  }

  private func work() {
    while true {
      condition.lock()
      var due: [Timer] = []
      var job: UnownedJob?
      while true {
        let now = ProcessInfo.processInfo.systemUptime
        if let first = timers.first, first.due <= now {
          due = timers.prefix { $0.due <= now }
          timers.removeFirst(due.count)
          break
        }
        if !jobs.isEmpty {
          job = jobs.removeFirst()
          break
        }
        if let first = timers.first {
          _ = condition.wait(until: Date(timeIntervalSinceNow: first.due - now))
        } else {
          condition.wait()
        }
      }
      condition.unlock()
      for timer in due { timer.action() }
      job?.runSynchronously(on: asUnownedTaskExecutor())
    }
  }
}
