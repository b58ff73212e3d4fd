import Foundation
import RefrainCore
import RefrainSession

/// Commands from `refrain ctl`.
extension App {
  /// What a command from `refrain ctl` answered: `ok` or one line of JSON, or why it failed.
  public typealias RemoteAnswer = Session.Answer

  /// Carries out a command from `refrain ctl` and calls `reply` with its answer on the main
  /// loop, as the control socket does: the status with the open pane, then the session's
  /// commands, then the full-screen player's own (``answerOwn(_:reply:)``).
  public func answer(remote command: Command, reply: @escaping (RemoteAnswer) -> Void) {
    if command == .status { return reply(.success(statusJSON())) }
    if session.answer(command, reply: reply) { return }
    _ = answerOwn(command, reply: reply)
  }

  /// The full-screen player's own verbs from `refrain ctl`: `quit` (which never asks), and
  /// what a key could do (`show PANE`, `open`, …).
  public func answerOwn(_ command: Command, reply: @escaping (RemoteAnswer) -> Void) -> Bool {
    switch command {
    case .quit:
      handle(remote: command)
      reply(.success("ok"))
    default:
      handle(command)
      reply(.success("ok"))
    }
    return true
  }
}
