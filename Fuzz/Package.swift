// swift-tools-version: 6.0
// libFuzzer targets for DigitalInk (see README.md). A package of its own so that the sanitizer flags
// never reach the library's users; `path: ".."` is the library itself.
//
//     make fuzz                      # from the repository root: build all, run each FUZZ_SECONDS
//     Fuzz/fuzz.sh build             # build only
//     Fuzz/fuzz.sh run fuzz-inkml 120
//
// Built in debug (SwiftPM enables testability in debug, so `@testable import DigitalInk` reaches the
// internal readers) with `-Xswiftc -sanitize=fuzzer,address`; each main.swift calls LLVMFuzzerRunDriver.
import PackageDescription

let fuzzers = [
    "fuzz-json", "fuzz-jsonl", "fuzz-inkml", "fuzz-strokearrays", "fuzz-safetensors",
    "fuzz-lm", "fuzz-manifest", "fuzz-config", "fuzz-recognize", "fuzz-profile",
]

let package = Package(
    name: "DigitalInkFuzz",
    dependencies: [
        .package(name: "DigitalInk", path: ".."),
    ],
    targets: [
        // LLVMFuzzerRunDriver, called by each fuzzer's main.swift (see Sources/FuzzMain).
        .target(name: "FuzzMain", path: "Sources/FuzzMain"),
    ] + fuzzers.map { name in
        .executableTarget(
            name: name,
            dependencies: ["FuzzMain", .product(name: "DigitalInk", package: "DigitalInk")],
            path: "Sources/\(name)"
        )
    },
    swiftLanguageModes: [.v6]
)
