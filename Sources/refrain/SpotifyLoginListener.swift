import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// The loopback end of a Spotify login: listens on `127.0.0.1:PORT` for the browser's
/// `GET /callback?…` and answers it with a short page.
///
/// It serves one login: other paths (a browser's `/favicon.ico`) get 404 and it keeps
/// waiting; the first `/callback` ends it. It never listens beyond 127.0.0.1.
struct SpotifyLoginListener {
  private let descriptor: Int32
  let port: Int

  /// Binds 127.0.0.1:`port`; throws a sentence when the port is taken.
  init(port: Int) throws {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    guard fd >= 0 else {
      throw ListenerError("cannot open a socket: \(String(cString: strerror(errno)))")
    }
    var yes: Int32 = 1
    setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = in_port_t(UInt16(port).bigEndian)
    address.sin_addr.s_addr = in_addr_t(UInt32(0x7F00_0001).bigEndian)
    let bound = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    guard bound == 0, listen(fd, 8) == 0 else {
      let reason = String(cString: strerror(errno))
      close(fd)
      throw ListenerError(
        "cannot listen on 127.0.0.1:\(port) (\(reason)); pick another with --port, and register "
          + "http://127.0.0.1:PORT/callback for your app, or use --paste")
    }
    descriptor = fd
    self.port = port
  }

  /// Waits up to `timeout` seconds for the callback; returns its full address
  /// (`http://127.0.0.1:PORT/callback?…`), having answered with `page(address)`.
  func waitForCallback(timeout: Double, page: (String) -> (status: Int, html: String)) throws
    -> String
  {
    defer { close(descriptor) }
    let deadline = Date().addingTimeInterval(timeout)
    while true {
      let left = deadline.timeIntervalSinceNow
      guard left > 0 else {
        throw ListenerError(
          "no answer from the browser within \(Int(timeout)) s; run `refrain spotify login` again")
      }
      var waiting = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
      let ready = poll(&waiting, 1, Int32(min(left, 1) * 1000))
      guard ready > 0 else { continue }
      let client = accept(descriptor, nil, nil)
      guard client >= 0 else { continue }
      defer { close(client) }
      var timeoutValue = timeval(tv_sec: 5, tv_usec: 0)
      setsockopt(
        client, SOL_SOCKET, SO_RCVTIMEO, &timeoutValue, socklen_t(MemoryLayout<timeval>.size))
      guard let target = Self.requestTarget(client) else { continue }
      guard target.hasPrefix("/callback") else {
        Self.answer(client, status: 404, html: "<p>Not found.</p>")
        continue
      }
      let address = "http://127.0.0.1:\(port)" + target
      let (status, html) = page(address)
      Self.answer(client, status: status, html: html)
      return address
    }
  }

  /// The request line's target, read from the first 8 KB.
  private static func requestTarget(_ client: Int32) -> String? {
    var buffer = [UInt8](repeating: 0, count: 8192)
    var count = 0
    while count < buffer.count {
      let got = buffer.withUnsafeMutableBytes { bytes -> Int in
        guard let base = bytes.baseAddress else { return -1 }
        return read(client, base + count, bytes.count - count)
      }
      guard got > 0 else { break }
      count += got
      if buffer[..<count].contains(UInt8(ascii: "\n")) { break }
    }
    let text = String(decoding: buffer[..<count], as: UTF8.self)
    let parts = text.split(separator: "\r\n", maxSplits: 1).first?.split(separator: " ") ?? []
    guard parts.count >= 2, parts[0] == "GET" else { return nil }
    return String(parts[1])
  }

  private static func answer(_ client: Int32, status: Int, html: String) {
    let body = Array(
      ("<!doctype html><html><head><meta charset=\"utf-8\"><title>Refrain</title></head><body>"
        + html + "</body></html>").utf8)
    let reason = status == 200 ? "OK" : status == 404 ? "Not Found" : "Bad Request"
    let head = Array(
      ("HTTP/1.1 \(status) \(reason)\r\nContent-Type: text/html; charset=utf-8\r\n"
        + "Content-Length: \(body.count)\r\nConnection: close\r\n\r\n").utf8)
    for bytes in [head, body] {
      var sent = 0
      while sent < bytes.count {
        let wrote = bytes.withUnsafeBytes { raw -> Int in
          guard let base = raw.baseAddress else { return -1 }
          return write(client, base + sent, raw.count - sent)
        }
        guard wrote > 0 else { return }
        sent += wrote
      }
    }
  }
}

/// Why the loopback listener stopped.
struct ListenerError: Error, CustomStringConvertible {
  let description: String
  init(_ description: String) { self.description = description }
}
