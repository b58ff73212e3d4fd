import Foundation

/// The sizes a catalog cover is asked at, and the rewriting of a cover URL that names its
/// size, so a pane gets a picture about as large as it draws and a cached one is reused.
///
/// A URL names its size when it is `http(s)`, its last path component is `getCoverArt` or
/// `getCoverArt.view` (the Subsonic API's cover request, exactly so spelt), and its query has
/// a `size` item. Any other URL is asked as it is.
public enum CoverSizing {
  /// The sizes asked, in pixels, smallest first; the smallest is also the least one asked.
  ///
  /// So the cached file the desktop shows (MPRIS, notifications) is never tiny.
  public static let buckets = [256, 512, 1024]

  /// The smallest bucket at least `pixels` large, or the largest bucket when none is (the
  /// terminal scales the rest).
  public static func bucket(forPixels pixels: Int) -> Int {
    buckets.first { $0 >= pixels } ?? buckets[buckets.count - 1]
  }

  /// The buckets a cached cover may have to serve a need of `bucket`: that one, then each
  /// larger one; never a smaller one.
  public static func servingBuckets(for bucket: Int) -> [Int] {
    buckets.filter { $0 >= bucket }
  }

  /// Whether `url` names the size of the picture it answers (see the type's summary).
  public static func namesSize(_ url: URL) -> Bool { self.url(url, size: 1) != nil }

  /// `url` asking for `size` pixels: its `size` items (all of them, if repeated) become one
  /// `size=N` where the first stood, and every other item is kept byte for byte; `nil` when
  /// `url` does not name its size.
  public static func url(_ url: URL, size: Int) -> URL? {
    guard ["http", "https"].contains(url.scheme?.lowercased() ?? ""),
      ["getCoverArt", "getCoverArt.view"].contains(url.lastPathComponent),
      var components = URLComponents(url: url, resolvingAgainstBaseURL: false),
      let items = components.percentEncodedQueryItems,
      let first = items.firstIndex(where: { $0.name == "size" })
    else { return nil }
    var sized = items
    sized[first] = URLQueryItem(name: "size", value: String(max(1, size)))
    sized = sized.enumerated().filter { $0.offset == first || $0.element.name != "size" }.map {
      $0.element
    }
    components.percentEncodedQueryItems = sized
    return components.url
  }
}
