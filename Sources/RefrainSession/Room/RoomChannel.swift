import Foundation
import RefrainCore

/// A listening room a session is in: the link to the server (a child process speaking JSON
/// lines) and the follower that keeps the session on the room.
///
/// Every front end reaches the room through the session (``Session/room``), so keys, a
/// list row, `refrain ctl`, MPRIS and the headless front ends all act on it alike.
public protocol RoomChannel: AnyObject {
  /// The room's name, from its URL.
  var name: String { get }
  /// Keeps the session on the room; holds its members, queue, library and chat.
  var follower: RoomFollower { get }
  /// Readable when the link has lines; -1 once the link has ended.
  var wakeFileDescriptor: Int32 { get }
  /// The complete lines the link wrote since the last call.
  func readLines() -> [String]
  /// Sends a request to the room; nothing once the link has ended.
  func send(_ request: RoomRequest)
  /// Ends the link: the member leaves the room.
  func stop()
}
