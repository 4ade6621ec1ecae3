// swift-tools-version: 6.1
// Benchmarks of DigitalInk (issue 7). A package of its own, so that package-benchmark and its
// dependencies never reach the library's users: `path: ".."` is the library itself.
//
//     cd Benchmarks && swift package benchmark              # the Benchmark suite (release build)
//     ./run.sh                                              # everything, and the figures in README.md
import PackageDescription

let package = Package(
    name: "DigitalInkBenchmarks",
    platforms: [.macOS(.v13)],
    dependencies: [
        .package(name: "DigitalInk", path: ".."),
        // ordo-one/benchmark, formerly package-benchmark (the old identifier still works, with a warning).
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.0", traits: ["MallocInterposer"]),
    ],
    targets: [
        // Shared by the suite and the helper tools: where the model and the inks are, loading them.
        .target(
            name: "BenchmarkSupport",
            dependencies: [.product(name: "DigitalInk", package: "DigitalInk")],
            path: "Sources/BenchmarkSupport"
        ),
        // The package-benchmark suite (found by the plugin because it lives in Benchmarks/<name>/).
        .executableTarget(
            name: "InkRecognition",
            dependencies: [
                "BenchmarkSupport",
                .product(name: "DigitalInk", package: "DigitalInk"),
                .product(name: "Benchmark", package: "benchmark"),
            ],
            path: "Benchmarks/InkRecognition",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        // Per-ink network-forward times as JSON, for side_by_side.py (same inks, same weights).
        .executableTarget(
            name: "inkrec-bench-forward",
            dependencies: ["BenchmarkSupport", .product(name: "DigitalInk", package: "DigitalInk")],
            path: "Sources/inkrec-bench-forward"
        ),
        // Peak resident memory of a process holding one recognizer, as JSON.
        .executableTarget(
            name: "inkrec-bench-memory",
            dependencies: ["BenchmarkSupport", .product(name: "DigitalInk", package: "DigitalInk")],
            path: "Sources/inkrec-bench-memory"
        ),
    ],
    swiftLanguageModes: [.v6]
)
