import Foundation
import RefrainCore

/// The user's library, called off the front end's thread one call at a time, in the order
/// asked, each result handed back on the session's thread.
///
/// One call runs at a time, so two quick edits reach the file in the order they were made,
/// and a read sees every edit asked for before it. A slow disk or another process holding
/// the library's write lock never holds up the loop.
public final class LibraryCalls {
  /// What a library call finished with.
  public typealias Result<T> = Swift.Result<T, any Error>

  private let storage: any LibraryStorage
  private let inbox: Inbox<Session>
  /// The last call asked for; the next one starts after it.
  private var tail: Task<Void, Never>?
  /// Calls asked for whose results the loop has not applied yet.
  public private(set) var pending = 0

  init(storage: any LibraryStorage, inbox: Inbox<Session>) {
    self.storage = storage
    self.inbox = inbox
  }

  /// Runs `work` in the background once every call asked for before it has finished, then
  /// `then` on the session's thread with its result.
  public func call<T: Sendable>(
    _ work: @escaping @Sendable (any LibraryStorage) throws -> T,
    then: @escaping (Result<T>) -> Void
  ) {
    let previous = tail
    let storage = storage
    let handler = SessionOnly(then)
    pending += 1
    tail = Task.detached(executorPreference: BackgroundExecutor.shared) { [inbox] in
      await previous?.value
      let result = Result { try work(storage) }
      inbox.post { session in
        session.libraryPart.calls?.pending -= 1
        handler.value(result)
      }
    }
  }

  /// Blocks until every call asked for so far has finished, without applying their results:
  /// for quitting, once nothing is drawn any more.
  public func waitForAll() {
    guard let tail else { return }
    let done = DispatchSemaphore(value: 0)
    Task.detached(executorPreference: BackgroundExecutor.shared) {
      await tail.value
      done.signal()
    }
    done.wait()
  }
}
