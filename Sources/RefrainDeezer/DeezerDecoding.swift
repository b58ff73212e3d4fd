import Foundation

/// A Deezer identifier: a JSON number beyond 32 bits (or, rarely, a string), kept as text.
struct DeezerID: Decodable, Sendable, Hashable {
  /// The identifier's decimal text.
  var value: String

  init(_ value: String) { self.value = value }

  init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    if let number = try? container.decode(Int64.self) {
      value = String(number)
    } else {
      let text = try container.decode(String.self)
      guard Int64(text) != nil else {
        throw DecodingError.dataCorruptedError(
          in: container, debugDescription: "not a numeric identifier: \(text)")
      }
      value = text
    }
  }
}

/// One page of a Deezer list: `data` plus `total` and the absolute `next`/`prev` links.
///
/// Items that fail to decode are skipped (such as a podcast where a track was expected),
/// unless every item fails, which means the shape changed and is reported.
struct DeezerList<Item: Decodable & Sendable>: Decodable, Sendable {
  var data: [Item]
  var total: Int?
  var next: String?
  var prev: String?

  private enum CodingKeys: String, CodingKey {
    case data, total, next, prev
  }

  init(data: [Item], total: Int? = nil) {
    self.data = data
    self.total = total
  }

  init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    var items = try container.nestedUnkeyedContainer(forKey: .data)
    var decoded: [Item] = []
    var firstFailure: (any Error)?
    while !items.isAtEnd {
      do {
        decoded.append(try items.decode(Item.self))
      } catch {
        firstFailure = firstFailure ?? error
        _ = try items.decode(Skipped.self)
      }
    }
    if decoded.isEmpty, let firstFailure { throw firstFailure }
    data = decoded
    total = container.lenientInt(.total)
    next = try? container.decodeIfPresent(String.self, forKey: .next)
    prev = try? container.decodeIfPresent(String.self, forKey: .prev)
  }

  /// Consumes one array element of any shape.
  private struct Skipped: Decodable {
    init(from decoder: any Decoder) throws {}
  }
}

extension KeyedDecodingContainer {
  /// An integer sent as a number or as numeric text; `nil` when absent or unreadable.
  func lenientInt(_ key: Key) -> Int? {
    if let number = try? decodeIfPresent(Int.self, forKey: key) { return number }
    if let text = try? decodeIfPresent(String.self, forKey: key) { return Int(text) }
    return nil
  }

  /// A string that is absent, `null` or of another type reads as `nil`.
  func lenientString(_ key: Key) -> String? {
    (try? decodeIfPresent(String.self, forKey: key)) ?? nil
  }
}
