// swift-tools-version: 6.1
import PackageDescription

/// Release builds of the modules on a request's path skip the runtime's dynamic exclusivity
/// checks (each `swift_beginAccess` on a class property or global costs a thread-local lookup
/// and an access-set insert, ~9 % of a hot tile request's instructions; the compiler's static
/// exclusivity diagnostics stay on, and debug builds, `swift test`, keep the dynamic checks),
/// and are compiled for cross-module optimization (TileCache's generic LRU and fill code then
/// specializes in TileServer instead of instantiating generic metadata at run time).
let requestPath: [SwiftSetting] = [
    .unsafeFlags(["-enforce-exclusivity=unchecked", "-cross-module-optimization"], .when(configuration: .release)),
]

let package = Package(
    name: "TileLayerServer",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "tilelayer", targets: ["tilelayer"]),
        .library(name: "TileLayer", targets: ["TileServer", "TileProviders", "TileGeometry", "TilePNG", "TileCodecs", "TileCache", "TileImagery"]),
        // The codec alone, for Benchmarks/ (so it builds without the server's dependencies).
        .library(name: "TilePNG", targets: ["TilePNG"]),
        // PNG, JPEG and WebP codecs, for Benchmarks/.
        .library(name: "TileCodecs", targets: ["TileCodecs"]),
        // HTTP/1.1 alone (its request parser, and the request/response types of TileService) and
        // the content hash it uses, for Benchmarks/.
        .library(name: "TileHTTP", targets: ["TileHTTP", "Hashing"]),
        // What each fuzz target checks, for Fuzz/'s harnesses (FuzzCorpusTests replays the corpus).
        .library(name: "FuzzChecks", targets: ["FuzzChecks"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.6.0"),
        .package(url: "https://github.com/jpsim/Yams", from: "6.0.0"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.21.0"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.5.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.0.0"),
    ],
    targets: [
        // Pure Web Mercator tile and camera geometry.
        .target(name: "TileGeometry"),
        // epoll, eventfd, accept4, sendfile, openat2 (RESOLVE_CACHED), statfs and malloc tuning,
        // which Glibc's Swift module does not export; linked only on Linux.
        .target(name: "CLinux"),
        // POSIX sockets and the two transports (epoll on Linux, Dispatch anywhere), no HTTP.
        .target(name: "Sockets", dependencies: [.target(name: "CLinux", condition: .when(platforms: [.linux]))],
                swiftSettings: requestPath),
        // XXH64, the content hash of ETags, memo slots and cache records; no dependencies.
        .target(name: "Hashing", swiftSettings: requestPath),
        // HTTP/1.1 over Sockets' event loops; knows no tiles.
        .target(
            name: "TileHTTP",
            dependencies: [
                "Sockets", "Hashing",
                .target(name: "CLinux", condition: .when(platforms: [.linux])),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
            ],
            swiftSettings: requestPath
        ),
        // System libraries (Debian: libpng-dev, libsqlite3-dev; zlib comes with libpng).
        .systemLibrary(name: "CLibPNG", pkgConfig: "libpng", providers: [.apt(["libpng-dev"])]),
        .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        // zlib's inflate, for PMTiles' gzip-compressed directories and metadata (Debian: zlib1g-dev).
        .systemLibrary(name: "CZlib", providers: [.apt(["zlib1g-dev"])]),
        // libjpeg-turbo's TurboJPEG API (Debian: libturbojpeg0-dev) and libwebp (Debian: libwebp-dev).
        .systemLibrary(name: "CTurboJPEG", pkgConfig: "libturbojpeg", providers: [.apt(["libturbojpeg0-dev"])]),
        .systemLibrary(name: "CWebP", pkgConfig: "libwebp", providers: [.apt(["libwebp-dev"])]),
        // hiredis, the C client of Redis, for the shared tile tier (Debian: libhiredis-dev).
        .systemLibrary(name: "CHiredis", providers: [.apt(["libhiredis-dev"])]),
        // A small blocking Redis client over hiredis (connection, pool, back-off); knows no tiles.
        .target(name: "Hiredis", dependencies: ["CHiredis"]),
        // libpng's setjmp/longjmp error handling, kept inside C.
        .target(name: "CPNGCodec", dependencies: ["CLibPNG"]),
        // PNG codec and RGBA8 image operations.
        .target(name: "TilePNG", dependencies: ["CPNGCodec"]),
        // PNG, JPEG and WebP decode/encode to and from TilePNG's RGBAImage, one entry point each way.
        .target(name: "TileCodecs", dependencies: ["TilePNG", "CTurboJPEG", "CWebP"]),
        // Generic byte-bounded cache, no HTTP.
        .target(name: "TileCache", dependencies: ["Hashing"], swiftSettings: requestPath),
        // Bytes kept in a memory file to be sent with sendfile (the memory cache's bodies); no HTTP.
        .target(name: "BodyStore", dependencies: [.target(name: "CLinux", condition: .when(platforms: [.linux]))],
                swiftSettings: requestPath),
        // Tile provider protocols and the sources.
        .target(
            name: "TileProviders",
            dependencies: [
                "TileGeometry", "TilePNG", "TileCodecs", "CSQLite", "CZlib", "Sockets",
                .target(name: "CLinux", condition: .when(platforms: [.linux])),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
            ]
        ),
        // GDAL (Debian: libgdal-dev): GeoTIFF/COG reads, the warper, /vsicurl/ and /vsis3/.
        .systemLibrary(name: "CGDAL", pkgConfig: "gdal", providers: [.apt(["libgdal-dev"])]),
        // Imagery through GDAL: the geotiff provider (warped per tile to Web Mercator) and range
        // reads of objects on S3 or HTTP(S) for PMTiles; TileHTTP and Sockets never import it.
        .target(
            name: "TileImagery",
            dependencies: [
                "TileProviders", "TileGeometry", "TilePNG", "TileCodecs", "CGDAL",
                .product(name: "Logging", package: "swift-log"),
            ],
            // Optimized in debug builds too: the tests serve imagery from the debug binary, and
            // `SeparableWarp`'s pixel loops unoptimized take longer than the tests wait.
            swiftSettings: [.unsafeFlags(["-O"], .when(configuration: .debug))]
        ),
        // App glue: configuration, routes, layers, the tile service.
        .target(
            name: "TileServer",
            dependencies: [
                "TileGeometry", "TileProviders", "TileHTTP", "Hashing", "TilePNG", "TileCache", "BodyStore", "Sockets", "Hiredis", "TileImagery",
                .target(name: "CLinux", condition: .when(platforms: [.linux])),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Yams", package: "Yams"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
            ],
            swiftSettings: requestPath
        ),
        // The command line.
        .target(
            name: "TileLayerCLI",
            dependencies: [
                "TileServer", "Sockets",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
            ]
        ),
        .executableTarget(name: "tilelayer", dependencies: ["TileLayerCLI"]),
        // Shared by the test targets: the trait that runs blocking tests on threads of their own.
        .target(name: "TestThreads", dependencies: [.target(name: "CLinux", condition: .when(platforms: [.linux]))],
                path: "Tests/TestThreads"),
        // Shared by the test targets that talk to a live server: a blocking loopback HTTP client.
        .target(name: "TestHTTPClient", dependencies: ["Sockets"], path: "Tests/TestHTTPClient"),
        // The fuzz targets' checks: Fuzz/'s libFuzzer harnesses and FuzzCorpusTests call them.
        .target(name: "FuzzChecks", dependencies: ["TileHTTP", "TileServer", "TileProviders", "TileGeometry", "TilePNG"],
                path: "Tests/FuzzChecks"),
        .testTarget(name: "TileGeometryTests", dependencies: ["TileGeometry"]),
        .testTarget(name: "SocketsTests", dependencies: ["Sockets", "TestThreads"]),
        .testTarget(name: "TileHTTPTests", dependencies: ["TileHTTP", "Sockets", "TestThreads", "TestHTTPClient"]),
        .testTarget(name: "HashingTests", dependencies: ["Hashing"]),
        .testTarget(name: "TilePNGTests", dependencies: ["TilePNG"]),
        .testTarget(name: "TileCodecsTests", dependencies: ["TileCodecs", "TestThreads"]),
        .testTarget(name: "TileCacheTests", dependencies: ["TileCache", "Hashing", "TestThreads"]),
        .testTarget(name: "BodyStoreTests", dependencies: ["BodyStore"]),
        .testTarget(name: "TileProvidersTests", dependencies: ["TileProviders", "TileGeometry", "TilePNG", "TestThreads"]),
        .testTarget(name: "TileImageryTests", dependencies: ["TileImagery", "TileProviders", "TileGeometry", "TilePNG", "TileCodecs", "TestThreads"]),
        .testTarget(
            name: "TileServerTests",
            dependencies: [
                "TileServer", "TileHTTP", "Hashing", "TileProviders", "TileGeometry", "TilePNG", "TileCodecs", "TileCache", "BodyStore", "Sockets",
                "TileLayerCLI", "Hiredis", "TestThreads", "TestHTTPClient", "FuzzChecks",
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
