import Dispatch
import Foundation
import RefrainCatalog
import RefrainCore

/// The catalogs a command can name with `--provider`.
let providerNames = ["demo", "local", "deezer"]

/// Makes the catalog provider called `name`, reading paths and URLs from `environment`;
/// `deezerURL` is config.toml's `online.deezer_url` (`REFRAIN_DEEZER_URL` wins).
func makeProvider(
  name: String, environment: [String: String] = ProcessInfo.processInfo.environment,
  deezerURL: URL? = nil
) throws -> any CatalogProvider {
  switch name {
  case "local":
    return LocalCatalogProvider(store: try LibraryStore.openDefault(environment: environment))
  case "demo":
    guard let resources = ResourceLocator.resources else { throw ProviderFactoryError.noResources }
    return try DemoCatalogProvider(resources: resources)
  case "deezer":
    return DeezerCatalogProvider(environment: environment, config: deezerURL?.absoluteString)
  default:
    throw ProviderFactoryError.unknown(name)
  }
}

/// Why no provider could be made.
enum ProviderFactoryError: Error, CustomStringConvertible {
  /// The name is not one of ``providerNames``.
  case unknown(String)
  /// Refrain's resources folder (with the demo catalog) was not found.
  case noResources

  var description: String {
    switch self {
    case .unknown(let name):
      return "there is no catalog called \(name); use one of: "
        + providerNames.joined(separator: ", ")
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
