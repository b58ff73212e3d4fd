import Foundation
import RefrainCore

/// Where `refrain subsonic login` keeps the login: `$XDG_DATA_HOME/refrain/subsonic.json`.
public typealias SubsonicAccountFile = PrivateJSONFile<SubsonicAccount>

extension PrivateJSONFile where Value == SubsonicAccount {
  /// `subsonic.json` in Refrain's data folder for `environment` (mode 0600, written whole).
  public static func standard(
    environment: [String: String] = ProcessInfo.processInfo.environment
  ) -> SubsonicAccountFile {
    SubsonicAccountFile(named: "subsonic.json", environment: environment)
  }
}
