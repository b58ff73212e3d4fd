import Foundation
import RefrainCore
import RefrainHTTP

/// Every way talking to a Subsonic server can fail, each as one plain line saying what to do.
public enum SubsonicError: Error, Sendable, Equatable, CustomStringConvertible {
  /// The server answered `status: failed` with a Subsonic error code (see ``describe(code:message:)``).
  case server(code: Int, message: String)
  /// The server could not be reached, answered badly or too late.
  case network(NetworkError)
  /// The address is not an `http://` or `https://` URL.
  case badAddress(String)
  /// `http://` to a host other than this machine without `--insecure`.
  case insecure(host: String)
  /// The token login was refused for a reason other than the password: the server wants
  /// the password itself (API before 1.13, or an LDAP account), which Refrain never stores.
  case passwordOnly(code: Int, message: String)
  /// No login is stored.
  case notLoggedIn

  public var description: String {
    switch self {
    case .server(let code, let message):
      return Self.describe(code: code, message: message)
    case .network(let error):
      return Self.describe(network: error)
    case .badAddress(let address):
      return "\"\(address)\" is not a server address; give one like https://music.example.org"
    case .insecure(let host):
      return
        "refusing to log in over plain http:// to \(host): the login could be read on the way; "
        + "use https://, or pass --insecure for a network you trust"
    case .passwordOnly(let code, _):
      let reason =
        code == 41
        ? "does not take tokens for this account (an LDAP user)"
        : "takes only the plain password (no token or API key)"
      return
        "the server \(reason); logging in would mean storing the password, which Refrain "
        + "does not do"
    case .notLoggedIn:
      return "not logged in to a Subsonic server; run `refrain subsonic login URL --user NAME`"
    }
  }

  /// The plain line for a Subsonic error code (the API's codes 0 to 70, with OpenSubsonic's
  /// 42 to 44); the server's own message is kept where it says more than the code.
  public static func describe(code: Int, message: String) -> String {
    let said = TerminalSanitizer.clean(message)
    switch code {
    case 10:
      return "the server says a required parameter is missing (\(said)); please report it"
    case 20:
      return "the server needs a newer Subsonic client than this Refrain; update Refrain"
    case 30:
      return "the server's Subsonic API is too old for Refrain; update the server"
    case 40:
      return "wrong user name or password: the server did not accept them"
    case 41:
      return "the server does not take token logins for this (LDAP) account"
    case 42:
      return "the server does not accept this way of logging in"
    case 43:
      return "the request mixed two ways of logging in; please report it"
    case 44:
      return "the server did not accept the API key; make a new one in its settings"
    case 50:
      return "this user may not do that on the server; ask its administrator"
    case 60:
      return "the server's trial period is over"
    case 70:
      return "the server has no such item; it may have been removed"
    default:
      return "the server reported an error (code \(code)): \(said)"
    }
  }

  private static func describe(network error: NetworkError) -> String {
    switch error {
    case .transport(let detail) where URLSessionTransport.isTLSFailure(detail):
      return
        "the server's TLS certificate was not accepted (\(detail)); if it is your own CA, "
        + "set SSL_CERT_FILE to its file"
    case .transport(let detail):
      return "could not reach the server (\(detail)); check the address and that it is running"
    case .httpStatus(let code, _) where code == 401 || code == 403:
      return "the server refused access (HTTP \(code)); check the address and the login"
    case .httpStatus(404, _):
      return "the server has no Subsonic API at this address (HTTP 404); check the address"
    case .decoding:
      return "the server's answer was not Subsonic JSON; check the address"
    default:
      return error.description
    }
  }
}
