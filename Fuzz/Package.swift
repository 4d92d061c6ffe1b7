// swift-tools-version: 6.1
// libFuzzer harnesses for tilelayer. Not part of the main package, so `swift test` is unaffected.
// Build and run with scripts/fuzz.sh: `swift build --sanitize=fuzzer --sanitize=address` here
// instruments every module (ours and the dependencies) and links libFuzzer's `main`.
import PackageDescription

/// Each harness defines only `LLVMFuzzerTestOneInput`; libFuzzer supplies `main`.
let harness: [SwiftSetting] = [.unsafeFlags(["-parse-as-library"])]
/// The checks live in the main package (Tests/FuzzChecks), where FuzzCorpusTests replays the corpus through them.
let checks: Target.Dependency = .product(name: "FuzzChecks", package: "TileLayerServer")

let package = Package(
    name: "TileLayerFuzz",
    platforms: [.macOS(.v15)],
    dependencies: [.package(name: "TileLayerServer", path: "..")],
    targets: [
        .executableTarget(name: "fuzz-http-parser", dependencies: [checks], path: "Targets/http-parser",
                          swiftSettings: harness),
        .executableTarget(name: "fuzz-route", dependencies: [checks], path: "Targets/route", swiftSettings: harness),
        .executableTarget(name: "fuzz-png", dependencies: [checks], path: "Targets/png", swiftSettings: harness),
        .executableTarget(name: "fuzz-config", dependencies: [checks], path: "Targets/config",
                          swiftSettings: harness),
    ],
    swiftLanguageModes: [.v6]
)
