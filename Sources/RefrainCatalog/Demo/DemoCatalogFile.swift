import Foundation
import RefrainCore

/// The shape of the demo catalog's `catalog.json`, as `scripts/make-demo-catalog` writes it.
///
/// Paths are relative to the folder that holds `catalog.json`. Artists, albums, genres and
/// tracks refer to each other by ID; `DemoCatalog` checks every reference.
struct DemoCatalogFile: Decodable {
  /// The only `format` this version of Refrain reads.
  static let supportedFormat = 1

  /// A performer.
  struct Artist: Decodable {
    var id: String
    var name: String
    var picture: String?
  }

  /// A genre that albums belong to.
  struct Genre: Decodable {
    var id: String
    var name: String
    var picture: String?
  }

  /// An album; its track list gives the track numbers.
  struct Album: Decodable {
    var id: String
    var title: String
    var artist: String
    var year: Int?
    var genres: [String]?
    var cover: String?
    var tracks: [String]
  }

  /// A song: an MP3 file and, usually, its lyrics (LRC or FLO song JSON).
  struct Track: Decodable {
    var id: String
    var title: String
    var artist: String
    var duration: Double?
    var file: String
    var lyrics: String?
  }

  /// A playlist of tracks.
  struct Playlist: Decodable {
    var id: String
    var title: String
    var owner: String?
    var cover: String?
    var tracks: [String]
  }

  /// A Home section; its items are `kind:id` references such as `album:blue-hour`.
  struct Section: Decodable {
    var id: String
    var title: String
    var kind: String
    var items: [String]
  }

  var format: Int
  var artists: [Artist]
  var genres: [Genre]
  var albums: [Album]
  var tracks: [Track]
  var playlists: [Playlist]
  var home: [Section]

  /// Decodes the file, turning a decoding failure into a short reason.
  static func decode(_ data: Data) throws(DemoCatalogProblem) -> DemoCatalogFile {
    do {
      return try JSONDecoder().decode(DemoCatalogFile.self, from: data)
    } catch let error as DecodingError {
      throw DemoCatalogProblem(reason(error))
    } catch {
      throw DemoCatalogProblem(String(describing: error))
    }
  }

  /// A one-line reason for a decoding failure, naming the field.
  private static func reason(_ error: DecodingError) -> String {
    func path(_ keys: [any CodingKey]) -> String {
      keys.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
    }
    switch error {
    case .keyNotFound(let key, let context):
      return
        "no \"\(key.stringValue)\" field at \(path(context.codingPath).isEmpty ? "top level" : path(context.codingPath))"
    case .typeMismatch(_, let context), .valueNotFound(_, let context):
      return "bad field \(path(context.codingPath)): \(context.debugDescription)"
    case .dataCorrupted(let context):
      let underlying = (context.underlyingError as NSError?)?.userInfo[NSDebugDescriptionErrorKey]
      return "not valid JSON: \(underlying as? String ?? context.debugDescription)"
    @unknown default:
      return String(describing: error)
    }
  }
}

/// Why `catalog.json` cannot be used; the provider adds the file's path.
struct DemoCatalogProblem: Error, Equatable {
  var reason: String

  init(_ reason: String) {
    self.reason = reason
  }
}
