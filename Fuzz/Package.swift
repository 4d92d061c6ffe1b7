// swift-tools-version: 6.1
// libFuzzer harnesses for tilelayer. Not part of the main package, so `swift test` is unaffected.
// Build and run with scripts/fuzz.sh: `swift build --sanitize=fuzzer --sanitize=address` here
// instruments every module (ours and the dependencies) and links libFuzzer's `main`.
import PackageDescription

/// Each harness defines only `LLVMFuzzerTestOneInput`; libFuzzer supplies `main`.
let harness: [SwiftSetting] = [.unsafeFlags(["-parse-as-library"])]
let tileLayer: Target.Dependency = .product(name: "TileLayer", package: "TileLayerServer")

let package = Package(
    name: "TileLayerFuzz",
    platforms: [.macOS(.v15)],
    dependencies: [.package(name: "TileLayerServer", path: "..")],
    targets: [
        .executableTarget(name: "fuzz-http-parser", dependencies: [tileLayer], path: "Targets/http-parser",
                          swiftSettings: harness),
        .executableTarget(name: "fuzz-route", dependencies: [tileLayer], path: "Targets/route", swiftSettings: harness),
        .executableTarget(name: "fuzz-png", dependencies: [tileLayer], path: "Targets/png", swiftSettings: harness),
        .executableTarget(name: "fuzz-config", dependencies: [tileLayer], path: "Targets/config",
                          swiftSettings: harness),
    ],
    swiftLanguageModes: [.v6]
)
