// swift-tools-version: 6.1
// Benchmarks for tilelayer, kept out of the main package so its build and its dependencies stay
// as they are. Depends on the main package by path.
//
// imaging-bench (Sources/): derived @2x tiles per second, side by side with Pillow. It uses only
// the `TilePNG` product (libpng codec + RGBA ops), so its release build compiles no server
// dependencies.
//
//   swift build -c release --package-path Benchmarks --product imaging-bench
//   scripts/bench-imaging.sh       (side by side with Pillow)
//
// codec-bench (Sources/): JPEG and WebP decode and encode of 256 px tiles per second with
// TileCodecs, side by side with Pillow (scripts/bench-imaging.sh, FORMATS=jpeg,webp).
//
// Micro benchmarks (Benchmarks/<Name>/, package-benchmark's layout, run by its plugin):
// HTTPParsing (TileHTTP's request parser), Imaging (TilePNG), Service (router, ETag hash, a whole
// hot tile request and a static view through TileService), Validation (a tile's structure walk).
//
//   swift package --package-path Benchmarks benchmark
//   scripts/bench-micro.sh
import Foundation
import PackageDescription

// A path dependency's identity is its folder name (main, a worktree's name, a CI clone's name).
let mainPackageIdentity = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().lastPathComponent.lowercased()

/// A package-benchmark suite: `Benchmarks/<name>/`, run by `swift package benchmark`.
func benchmarkSuite(_ name: String, products: [String], extra: [Target.Dependency] = []) -> Target {
    .executableTarget(
        name: name,
        dependencies: [.product(name: "Benchmark", package: "benchmark"), "BenchmarkFixtures"]
            + products.map { .product(name: $0, package: mainPackageIdentity) } + extra,
        path: "Benchmarks/\(name)",
        plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
    )
}

let package = Package(
    name: "TileLayerBenchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(path: ".."),
        .package(url: "https://github.com/apple/swift-log", from: "1.6.0"),
        // Only the malloc interposer (malloc counts, no jemalloc needed). The other default trait,
        // "RuntimeInterposer" (ARC counts on Linux with Swift 6.3), would pull in
        // ordo-one/swift-runtime-interposer, which is not among the packages available here;
        // these suites record no ARC metrics.
        .package(url: "https://github.com/ordo-one/benchmark", .upToNextMajor(from: "1.38.1"),
                 traits: ["MallocInterposer"]),
    ],
    targets: [
        .executableTarget(
            name: "imaging-bench",
            dependencies: [.product(name: "TilePNG", package: mainPackageIdentity)]
        ),
        // JPEG and WebP decode/encode side by side with Pillow (scripts/bench-imaging.sh).
        .executableTarget(
            name: "codec-bench",
            dependencies: [.product(name: "TileCodecs", package: mainPackageIdentity)]
        ),
        // What the suites share: where the repository's tiles are, a browser's request, the metrics.
        .target(name: "BenchmarkFixtures", dependencies: [.product(name: "Benchmark", package: "benchmark")]),
        benchmarkSuite("HTTPParsing", products: ["TileHTTP"]),
        benchmarkSuite("Imaging", products: ["TilePNG"]),
        benchmarkSuite("Service", products: ["TileLayer", "TileHTTP"],
                       extra: [.product(name: "Logging", package: "swift-log")]),
        benchmarkSuite("Validation", products: ["TileLayer", "TileCodecs"]),
    ],
    swiftLanguageModes: [.v6]
)
