// swift-tools-version: 6.1
// Benchmarks for tilelayer, kept out of the main package so its build and its dependencies stay
// as they are. Depends on the main package by path and uses only its `TilePNG` product (libpng
// codec + RGBA ops), so a release build here compiles no server dependencies.
//
//   swift build -c release --package-path Benchmarks --product imaging-bench
//   scripts/bench-imaging.sh       (side by side with Pillow)
import Foundation
import PackageDescription

// A path dependency's identity is its folder name (main, a worktree's name, a CI clone's name).
let mainPackageIdentity = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().lastPathComponent.lowercased()

let package = Package(
    name: "TileLayerBenchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(path: ".."),
    ],
    targets: [
        .executableTarget(
            name: "imaging-bench",
            dependencies: [.product(name: "TilePNG", package: mainPackageIdentity)]
        ),
    ],
    swiftLanguageModes: [.v6]
)
