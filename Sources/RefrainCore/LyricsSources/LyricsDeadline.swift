import Foundation

/// Runs an async operation with a time limit, returning at the limit even when the operation
/// ignores cancellation (it is cancelled and left to finish on its own).
///
/// The lyrics resolver limits a whole lookup with it, and online sources limit each request
/// (Foundation's own URLSession time-outs are whole seconds on Linux). The operation and the
/// timer run on ``BackgroundExecutor``, not on libdispatch's pool.
public enum LyricsDeadline {
  /// How a limited operation ended.
  public enum Outcome<Value: Sendable>: Sendable {
    /// The operation returned in time.
    case value(Value)
    /// The operation threw in time.
    case failure(any Error)
    /// The time limit passed first.
    case timedOut
    /// The calling task was cancelled first.
    case cancelled
  }

  /// Runs `operation`, giving up after `seconds`.
  public static func run<Value: Sendable>(
    seconds: Double, _ operation: @escaping @Sendable () async throws -> Value
  ) async -> Outcome<Value> {
    let race = Race<Value>()
    return await withTaskCancellationHandler {
      await withCheckedContinuation { continuation in
        race.start(continuation)
        let executor = BackgroundExecutor.shared
        let work = Task(executorPreference: executor) {
          do {
            race.finish(.value(try await operation()))
          } catch {
            race.finish(.failure(error))
          }
        }
        let timer = executor.schedule(after: seconds) { race.finish(.timedOut) }
        race.track(work) { executor.cancel(timer) }
      }
    } onCancel: {
      race.finish(.cancelled)
    }
  }

  /// The first outcome wins; later ones are dropped and the losing tasks cancelled.
  private final class Race<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var continuation: CheckedContinuation<Outcome<Value>, Never>?
    private var early: Outcome<Value>?
    private var done = false
    private var tasks: [Task<Void, Never>] = []
    private var cancelTimer: (@Sendable () -> Void)?

    /// Installs the continuation; resumes it at once if an outcome arrived first.
    func start(_ continuation: CheckedContinuation<Outcome<Value>, Never>) {
      lock.lock()
      if let early {
        lock.unlock()
        continuation.resume(returning: early)
        return
      }
      self.continuation = continuation
      lock.unlock()
    }

    /// Remembers the racing work and how to stop its timer, stopping both if the race is
    /// already over.
    func track(_ task: Task<Void, Never>, cancelTimer: @escaping @Sendable () -> Void) {
      lock.lock()
      let over = done
      if !over {
        tasks = [task]
        self.cancelTimer = cancelTimer
      }
      lock.unlock()
      if over {
        task.cancel()
        cancelTimer()
      }
    }

    /// Reports an outcome; only the first one counts.
    func finish(_ outcome: Outcome<Value>) {
      lock.lock()
      guard !done else {
        lock.unlock()
        return
      }
      done = true
      let continuation = self.continuation
      self.continuation = nil
      if continuation == nil { early = outcome }
      let losers = tasks
      let stopTimer = cancelTimer
      tasks = []
      cancelTimer = nil
      lock.unlock()
      continuation?.resume(returning: outcome)
      for task in losers { task.cancel() }
      stopTimer?()
    }
  }
}
