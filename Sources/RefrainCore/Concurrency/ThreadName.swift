import Foundation

/// Names the running system thread, as `top -H`, `ps -L` and /proc show it (up to 15 bytes).
///
/// Foundation's `Thread.name` does not reach the system thread on Linux, and a new thread
/// otherwise inherits its creator's name.
public func nameCurrentThread(_ name: String) {
  guard let file = fopen("/proc/thread-self/comm", "w") else { return }
  _ = fputs(String(name.utf8.prefix(15)) ?? name, file)
  fclose(file)
}
