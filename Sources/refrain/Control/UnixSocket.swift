import Foundation

/// Small helpers for Unix stream sockets (the control socket).
enum UnixSocket {
  /// Why a socket operation failed.
  struct Failure: Error, CustomStringConvertible {
    var description: String
  }

  /// The control socket's default path: `$XDG_RUNTIME_DIR/refrain/socket`, else
  /// `/tmp/refrain-$UID/socket`.
  static func defaultPath(environment: [String: String] = ProcessInfo.processInfo.environment)
    -> String
  {
    if let runtime = environment["XDG_RUNTIME_DIR"], runtime.hasPrefix("/") {
      return runtime + "/refrain/socket"
    }
    return "/tmp/refrain-\(getuid())/socket"
  }

  /// Builds an address for `path`; fails when the path is too long for `sun_path`.
  static func address(_ path: String) throws -> sockaddr_un {
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    let bytes = Array(path.utf8)
    let capacity = MemoryLayout.size(ofValue: address.sun_path)
    guard bytes.count < capacity else {
      throw Failure(description: "the socket path \(path) is too long (max \(capacity - 1) bytes)")
    }
    withUnsafeMutableBytes(of: &address.sun_path) { raw in
      raw.copyBytes(from: bytes)
      raw[bytes.count] = 0
    }
    return address
  }

  /// Connects to the socket at `path`.
  static func connect(to path: String) throws -> Int32 {
    var address = try address(path)
    let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { throw Failure(description: "cannot create a socket: \(errnoText)") }
    let result = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        Foundation.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
      }
    }
    guard result == 0 else {
      let reason = errnoText
      close(fd)
      throw Failure(description: "no Refrain is listening on \(path) (\(reason))")
    }
    return fd
  }

  /// Writes all of `text`.
  static func send(_ text: String, to fd: Int32) -> Bool {
    var bytes = Array(text.utf8)[...]
    while !bytes.isEmpty {
      let written = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
      if written < 0 && errno == EINTR { continue }
      guard written > 0 else { return false }
      bytes = bytes.dropFirst(written)
    }
    return true
  }

  /// Reads one line (without the newline); `nil` at end of stream or on error.
  static func readLine(from fd: Int32, limit: Int = 65_536) -> String? {
    var line = [UInt8]()
    var byte: UInt8 = 0
    while line.count < limit {
      let count = read(fd, &byte, 1)
      if count < 0 && errno == EINTR { continue }
      guard count == 1 else { return line.isEmpty ? nil : String(decoding: line, as: UTF8.self) }
      if byte == UInt8(ascii: "\n") { break }
      line.append(byte)
    }
    return String(decoding: line, as: UTF8.self)
  }

  /// Makes `fd` non-blocking and closed on exec.
  static func makeNonBlocking(_ fd: Int32) {
    _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
    _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
  }

  static var errnoText: String { String(cString: strerror(errno)) }
}
