// swift-tools-version: 6.1
import PackageDescription

/// Makes the executable export CCurlLoader's libcurl functions, so that the shared
/// FoundationNetworking of a debug build calls them as the static one of a release build
/// does (a debug binary otherwise binds Foundation straight to libcurl, skipping the loader).
let curlLoaderExports: [LinkerSetting] = [
  .unsafeFlags([
    "-Xlinker", "--dynamic-list=\(Context.packageDirectory)/Sources/CCurlLoader/exports.list",
  ])
]

let package = Package(
  name: "Refrain",
  platforms: [.macOS(.v14)],
  products: [
    .executable(name: "refrain", targets: ["refrain"]),
    // Listening rooms, in a process of their own: `refrain room serve` and a member's link.
    .executable(name: "refrain-room", targets: ["refrain-room"]),
    // MPRIS over GIO, opened by the binary only when a session bus is there
    // (librefrain-mpris.so beside it; see CMPRISLoader).
    .library(name: "refrain-mpris", type: .dynamic, targets: ["CMPRIS"]),
  ],
  dependencies: [
    .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
    .package(url: "https://github.com/apple/swift-log", from: "1.6.0"),
    .package(url: "https://github.com/groue/GRDB.swift", from: "7.0.0"),
    .package(url: "https://github.com/LebJe/TOMLKit", from: "0.6.0"),
    // Listening rooms only (refrain-room): the server, and a member's WebSocket client.
    .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.0.0"),
    .package(url: "https://github.com/hummingbird-project/hummingbird-websocket", from: "2.0.0"),
    // Already there under Hummingbird; named because RefrainRoom imports their modules.
    .package(url: "https://github.com/apple/swift-nio.git", from: "2.0.0"),
    .package(url: "https://github.com/apple/swift-nio-ssl.git", from: "2.0.0"),
    .package(url: "https://github.com/apple/swift-http-types.git", from: "1.0.0"),
  ],
  targets: [
    // C libraries, each behind a thin system-library wrapper.
    .systemLibrary(name: "CNcursesw", pkgConfig: "ncursesw", providers: [.apt(["libncurses-dev"])]),
    .systemLibrary(name: "CMPG123", pkgConfig: "libmpg123", providers: [.apt(["libmpg123-dev"])]),
    .systemLibrary(name: "CFAAD", providers: [.apt(["libfaad-dev"])]),  // AAC in M4A files
    .systemLibrary(
      name: "CPulse", pkgConfig: "libpulse", providers: [.apt(["libpulse-dev"])]),
    // One well-kept library per format behind RefrainAudio's AudioDecoder (WAV is Refrain's).
    .systemLibrary(name: "CFLAC", pkgConfig: "flac", providers: [.apt(["libflac-dev"])]),
    .systemLibrary(
      name: "CVorbisFile", pkgConfig: "vorbisfile", providers: [.apt(["libvorbis-dev"])]),
    .systemLibrary(
      name: "COpusFile", pkgConfig: "opusfile", providers: [.apt(["libopusfile-dev"])]),
    // MeCab (Japanese words and readings, with the mecab-ipadic-utf8 dictionary) for
    // romanized Japanese lyrics; MeCab ships no pkg-config file.
    .systemLibrary(name: "CMeCab", providers: [.apt(["libmecab-dev", "mecab-ipadic-utf8"])]),
    // libsoxr: a queue whose tracks change rate plays on at the first one's (Resampler).
    .systemLibrary(name: "CSoxr", pkgConfig: "soxr", providers: [.apt(["libsoxr-dev"])]),
    // EBU R128 loudness for `refrain scan --replaygain`.
    .systemLibrary(
      name: "CEBUR128", pkgConfig: "libebur128", providers: [.apt(["libebur128-dev"])]),
    // libgcrypt's MD5 for Last.fm's request signatures (libpulse already loads libgcrypt).
    .systemLibrary(
      name: "CGcrypt", pkgConfig: "libgcrypt", providers: [.apt(["libgcrypt20-dev"])]),
    // MPRIS over GIO's D-Bus is a plugin the binary opens only when MPRIS starts
    // (librefrain-mpris.so beside the binary: the refrain-mpris product, plain C from
    // Sources/CMPRIS; `make release` links it with scripts/build-mpris-plugin, without the
    // Swift runtime); CMPRISLoader forwards the calls to it.
    .target(
      name: "CMPRISLoader", path: "Sources/CMPRISLoader", linkerSettings: [.linkedLibrary("dl")]),
    .systemLibrary(name: "CGIO", pkgConfig: "gio-2.0", providers: [.apt(["libglib2.0-dev"])]),
    .target(
      name: "CMPRIS", dependencies: ["CGIO"], path: "Sources/CMPRIS",
      cSettings: [
        .headerSearchPath("../CMPRISLoader/include"),
        .unsafeFlags(["-fvisibility=hidden", "-Wall", "-Werror"]),
      ]),
    .target(name: "CAudioShims", dependencies: ["CMPG123", "CPulse"], path: "Sources/CAudioShims"),
    .target(name: "CTUIShims", dependencies: ["CNcursesw"], path: "Sources/CTUIShims"),
    .systemLibrary(name: "CPNG", pkgConfig: "libpng", providers: [.apt(["libpng-dev"])]),
    .systemLibrary(name: "CJPEG", pkgConfig: "libjpeg", providers: [.apt(["libjpeg62-turbo-dev"])]),
    // libpng/libjpeg calls whose setjmp/longjmp error handling must stay in C.
    .target(name: "CImageShims", dependencies: ["CPNG", "CJPEG"], path: "Sources/CImageShims"),
    // libcurl for URLSession, opened on first use instead of at start-up (curl_loader.c).
    .target(
      name: "CCurlLoader", path: "Sources/CCurlLoader", linkerSettings: [.linkedLibrary("dl")]),

    // Swift modules.
    .target(name: "RefrainCore"),
    // The listening session every front end shares: playback, queue, lyrics, status.
    .target(name: "RefrainSession", dependencies: ["RefrainCore"]),
    .target(
      name: "RefrainAudio",
      dependencies: [
        "RefrainCore", "RefrainTags", "CMPG123", "CPulse", "CAudioShims", "CCurlLoader", "CFLAC",
        "CVorbisFile", "COpusFile", "CFAAD", "CEBUR128", "CSoxr",
      ]
    ),
    // The HTTP layer every online service shares: Endpoint, the client, the transport,
    // retries, rate limits, the response cache and the digests services sign with.
    .target(name: "RefrainHTTP", dependencies: ["CCurlLoader", "CGcrypt"]),
    // The demo and local catalogs, the local scan, and the library store (GRDB, SQLite).
    .target(
      name: "RefrainCatalog",
      dependencies: [
        "RefrainCore", "RefrainTags", .product(name: "GRDB", package: "GRDB.swift"),
        // SQLite's C API, for the scan's inner loop (LocalLibrary/BoundStatement.swift).
        .product(name: "GRDBSQLite", package: "GRDB.swift"),
      ]
    ),
    // Online services, one module each over RefrainHTTP: previews and search (Deezer), a
    // Subsonic server, lyrics (LRCLIB), scrobbling (ListenBrainz, Last.fm), Spotify import.
    .target(name: "RefrainDeezer", dependencies: ["RefrainCore", "RefrainHTTP"]),
    .target(name: "RefrainLRCLIB", dependencies: ["RefrainCore", "RefrainHTTP", "CGcrypt"]),
    .target(
      name: "RefrainScrobble", dependencies: ["RefrainCore", "RefrainHTTP", "RefrainCatalog"]),
    .target(
      name: "RefrainSubsonic",
      dependencies: ["RefrainCore", "RefrainHTTP", "RefrainScrobble"]),
    .target(
      name: "RefrainSpotify",
      dependencies: ["RefrainCore", "RefrainHTTP", "RefrainCatalog", "RefrainDeezer"]),
    // Cover art: decoding, scaling, half blocks, graphics protocols, cover sources. No UI.
    .target(name: "RefrainArt", dependencies: ["RefrainCore", "RefrainTags", "CImageShims"]),
    .target(
      name: "RefrainTUI",
      dependencies: ["RefrainCore", "RefrainSession", "RefrainArt", "CNcursesw", "CTUIShims"]),
    // The desktop front ends of the session: MPRIS 2 on the session bus.
    .target(
      name: "RefrainDesktop", dependencies: ["RefrainCore", "RefrainSession", "CMPRISLoader"]),
    // Every tag reader (ID3, Vorbis comments, RIFF INFO, MP4 atoms), embedded lyrics, covers
    // and ReplayGain: pure Swift over RefrainCore, so the room server links no decoder.
    .target(name: "RefrainTags", dependencies: ["RefrainCore"]),
    // RefrainCore's JapaneseDictionary over MeCab: kanji readings and word boundaries for
    // romanized Japanese lyrics.
    .target(name: "RefrainJapanese", dependencies: ["RefrainCore", "CMeCab"]),
    // Listening rooms: the server (Hummingbird) and a member's link (its WebSocket client).
    .target(
      name: "RefrainRoom",
      dependencies: [
        "RefrainCore", "RefrainTags", .product(name: "GRDB", package: "GRDB.swift"),
        .product(name: "Hummingbird", package: "hummingbird"),
        .product(name: "HummingbirdCore", package: "hummingbird"),
        .product(name: "HummingbirdWebSocket", package: "hummingbird-websocket"),
        .product(name: "HummingbirdWSClient", package: "hummingbird-websocket"),
        .product(name: "HTTPTypes", package: "swift-http-types"),
        .product(name: "Logging", package: "swift-log"),
        .product(name: "NIOCore", package: "swift-nio"),
        .product(name: "NIOWebSocket", package: "swift-nio"),
        .product(name: "NIOSSL", package: "swift-nio-ssl"),
      ]),
    .executableTarget(
      name: "refrain-room",
      dependencies: [
        "RefrainRoom", "RefrainCore", "RefrainTags",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ],
      path: "Sources/RefrainRoomTool", linkerSettings: curlLoaderExports),
    .target(
      name: "RefrainConfig",
      dependencies: [
        "RefrainCore", "RefrainTags", .product(name: "TOMLKit", package: "TOMLKit"),
        .product(name: "Logging", package: "swift-log"),
      ]
    ),
    .executableTarget(
      name: "refrain",
      dependencies: [
        "RefrainCore", "RefrainSession", "RefrainAudio", "RefrainCatalog", "RefrainTUI",
        "RefrainConfig", "RefrainArt", "RefrainDesktop", "RefrainTags", "RefrainHTTP",
        "RefrainDeezer", "RefrainSubsonic", "RefrainLRCLIB", "RefrainScrobble", "RefrainSpotify",
        "RefrainJapanese", .product(name: "ArgumentParser", package: "swift-argument-parser"),
        .product(name: "Logging", package: "swift-log"), "CCurlLoader",
      ],
      linkerSettings: curlLoaderExports
    ),

    // Benchmarks and the library stress tool: built for `make test` and `make bench`,
    // never part of the `refrain` binary.
    .executableTarget(
      name: "refrain-bench",
      dependencies: [
        "RefrainCore", "RefrainAudio", "RefrainCatalog", "RefrainArt", "RefrainHTTP",
        "RefrainSubsonic", "RefrainSpotify", "RefrainTags",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ],
      path: "Sources/RefrainBench",
      // Network requests go through CCurlLoader, as in `refrain` (subsonic-search).
      linkerSettings: curlLoaderExports),

    // The fake player the presenter and the full-screen player's tests share.
    .target(
      name: "RefrainTestSupport", dependencies: ["RefrainCore"], path: "Tests/RefrainTestSupport"),
    .testTarget(
      name: "RefrainCoreTests", dependencies: ["RefrainCore", "RefrainTags", "RefrainTestSupport"]),
    .testTarget(
      name: "RefrainAudioTests",
      dependencies: ["RefrainAudio", "RefrainCore", "RefrainTags", "RefrainTestSupport"]),
    .testTarget(
      name: "RefrainCatalogTests",
      dependencies: [
        "RefrainCatalog", "RefrainTags", "RefrainHTTP", "RefrainCore", "RefrainTestSupport",
        "RefrainDeezer", "RefrainSubsonic", "RefrainLRCLIB", "RefrainScrobble", "RefrainSpotify",
        "CCurlLoader", .product(name: "GRDB", package: "GRDB.swift"),
      ]),
    // RefrainCatalog: the tests that run on a real SQLite library file.
    .testTarget(
      name: "RefrainTUITests",
      dependencies: [
        "RefrainTUI", "RefrainSession", "RefrainCore", "RefrainCatalog", "RefrainArt",
        "RefrainTestSupport",
      ]),
    .testTarget(
      name: "RefrainSessionTests",
      // RefrainCatalog: the tests that run on a real SQLite library file.
      dependencies: ["RefrainSession", "RefrainCore", "RefrainCatalog", "RefrainTestSupport"]),
    .testTarget(name: "RefrainArtTests", dependencies: ["RefrainArt", "RefrainCore"]),
    .testTarget(name: "RefrainJapaneseTests", dependencies: ["RefrainJapanese", "RefrainCore"]),
    .testTarget(
      name: "RefrainDesktopTests",
      dependencies: ["RefrainDesktop", "RefrainSession", "RefrainCore", "RefrainTestSupport"]),
    .testTarget(
      name: "RefrainRoomTests",
      dependencies: ["RefrainRoom", "RefrainCore", .product(name: "GRDB", package: "GRDB.swift")]),
    .testTarget(
      name: "RefrainTagsTests",
      dependencies: [
        "RefrainTags", "RefrainAudio", "RefrainCatalog", "RefrainCore", "RefrainTestSupport",
      ]),
    .testTarget(
      name: "RefrainConfigTests",
      dependencies: [
        "RefrainConfig", "RefrainCore", .product(name: "Logging", package: "swift-log"),
      ]),
  ],
  swiftLanguageModes: [.v6]
)
