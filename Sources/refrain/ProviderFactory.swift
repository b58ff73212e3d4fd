import ArgumentParser
import Dispatch
import Foundation
import RefrainCatalog
import RefrainConfig
import RefrainCore
import RefrainDeezer
import RefrainSpotify
import RefrainSubsonic

/// `--provider demo|local|deezer|spotify|subsonic` and `--output pulse|null` read as the configuration's
/// own choices, so the command line and config.toml name them alike.
extension RefrainConfiguration.Provider: ExpressibleByArgument {}
extension RefrainConfiguration.Output: ExpressibleByArgument {}

/// Makes the catalog `provider`, reading paths from `environment` and the online catalog's
/// root from `configuration` (`REFRAIN_DEEZER_URL` over `online.deezer_url`).
func makeProvider(
  _ provider: RefrainConfiguration.Provider, configuration: RefrainConfiguration,
  environment: [String: String] = ProcessInfo.processInfo.environment
) throws -> any CatalogProvider {
  switch provider {
  case .local:
    return LocalCatalogProvider(store: try LibraryStore.openDefault(environment: environment))
  case .demo:
    guard let resources = ResourceLocator.resources else { throw ProviderFactoryError.noResources }
    return try DemoCatalogProvider(resources: resources)
  case .deezer:
    return DeezerCatalogProvider(
      baseURL: configuration.deezerURL(environment: environment), environment: environment)
  case .spotify:
    let previews = configuration.deezerURL(environment: environment).map {
      DeezerCatalogProvider(baseURL: $0, environment: environment)
    }
    // Imported tracks matched to the user's Subsonic server play from it while logged in.
    let server = SubsonicAccountFile.standard(environment: environment).load().map {
      SubsonicCatalogProvider(account: $0, transcode: configuration.subsonicTranscoding)
    }
    return SpotifyCatalogProvider(
      store: try LibraryStore.openDefault(environment: environment), previews: previews,
      server: server)
  case .subsonic:
    return SubsonicCatalogProvider(
      account: SubsonicAccountFile.standard(environment: environment).load(),
      transcode: configuration.subsonicTranscoding)
  }
}

extension RefrainConfiguration {
  /// What `stream.view` asks the server for, from `subsonic.transcode` and `max_bitrate`.
  var subsonicTranscoding: SubsonicTranscode {
    subsonicTranscode == .raw
      ? .raw : SubsonicTranscode(format: subsonicTranscode.rawValue, maxBitRate: subsonicMaxBitrate)
  }
}

/// Why no provider could be made.
enum ProviderFactoryError: Error, CustomStringConvertible {
  /// Refrain's resources folder (with the demo catalog) was not found.
  case noResources

  var description: String {
    switch self {
    case .noResources:
      return "cannot find Refrain's resources (the demo catalog); set REFRAIN_RESOURCES"
    }
  }
}

/// Runs an async operation to completion from synchronous command code.
///
/// Commands are synchronous (`ParsableCommand`); providers are async. The operation runs on
/// ``BackgroundExecutor`` while the calling thread waits.
func waitFor<T: Sendable>(_ operation: @escaping @Sendable () async throws -> T) throws -> T {
  let box = ResultBox<T>()
  let done = DispatchSemaphore(value: 0)
  Task(executorPreference: BackgroundExecutor.shared) {
    do {
      box.result = .success(try await operation())
    } catch {
      box.result = .failure(error)
    }
    done.signal()
  }
  done.wait()
  guard let result = box.result else { throw CancellationError() }
  return try result.get()
}

/// Carries a result from the task to the waiting thread (the semaphore orders the accesses).
private final class ResultBox<T: Sendable>: @unchecked Sendable {
  var result: Result<T, any Error>?
}
