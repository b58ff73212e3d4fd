import Foundation

/// What came from the bus: a client's method call or property write, or news of the
/// connection itself.
public enum MPRISRequest: Sendable, Equatable {
  /// Refrain owns `busName` and its object is exported.
  case connected(busName: String)
  /// There is no session bus (or both names were refused); `reason` says why.
  case unavailable(reason: String)
  /// The bus closed the connection.
  case disconnected(reason: String)
  /// `Quit`.
  case quit
  /// `Next`.
  case next
  /// `Previous`.
  case previous
  /// `Pause`.
  case pause
  /// `PlayPause`.
  case playPause
  /// `Stop`.
  case stop
  /// `Play`.
  case play
  /// `Seek(offset)`, in µs from the current position.
  case seek(offset: Int64)
  /// `SetPosition(trackID, position)`, position in µs.
  case setPosition(trackID: String, position: Int64)
  /// `OpenUri(uri)`: a `file`, `http` or `https` URI (the bus refused others).
  case openURI(String)
  /// A write of `Volume` (0...1; clients may send more or less).
  case setVolume(Double)
  /// A write of `LoopStatus`.
  case setLoop(MPRISPlayerState.LoopStatus)
  /// A write of `Shuffle`.
  case setShuffle(Bool)
}

/// The audible position as MPRIS computes `Position` from it: where the track was at the
/// moment it was published, whether it moves on with the clock, and where it stops.
public struct MPRISPosition: Sendable, Equatable {
  /// The position when published, in µs.
  public var microseconds: Int64
  /// Whether it advances at rate 1 (playing).
  public var advancing: Bool
  /// The track's length in µs, beyond which it never goes; `nil` when unknown.
  public var limit: Int64?

  /// Creates a position anchor.
  public init(microseconds: Int64, advancing: Bool, limit: Int64?) {
    self.microseconds = microseconds
    self.advancing = advancing
    self.limit = limit
  }
}

/// Where the MPRIS front end publishes and where requests come from: ``MPRISBus`` on the
/// session bus, or a recorder in tests.
public protocol MPRISEndpoint: AnyObject {
  /// Becomes readable when requests are waiting.
  var wakeFileDescriptor: Int32 { get }
  /// Takes the waiting requests, oldest first.
  func takeRequests() -> [MPRISRequest]
  /// Replaces the Player properties; the bus signals the ones that changed.
  func publish(_ state: MPRISPlayerState)
  /// Replaces `Metadata` (`nil`: no track) and signals it.
  func publish(_ metadata: MPRISMetadata?)
  /// Replaces the anchor `Position` is computed from; never signalled.
  func anchor(_ position: MPRISPosition)
  /// Emits `Seeked`.
  func seeked(to microseconds: Int64)
  /// Shows a desktop notification that replaces the last one (`icon`: an image file).
  func notify(summary: String, body: String, icon: URL?)
  /// Leaves the bus; the endpoint is not used afterwards.
  func stop()
}

extension MPRISEndpoint {
  /// Endpoints without a desktop to notify show nothing.
  public func notify(summary: String, body: String, icon: URL?) {}
}
