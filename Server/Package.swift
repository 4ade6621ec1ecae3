// swift-tools-version: 6.2
// The HTTP server of DigitalInk (`inkrec-serve`): a package of its own, so that an app that depends on
// the library never resolves or builds a web server (the library's Package.swift names no server
// dependency; this one depends on the library by path).
import PackageDescription

let package = Package(
    name: "InkServer",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "inkrec-serve", targets: ["inkrec-serve"]),
        .library(name: "InkServer", targets: ["InkServer"]),
    ],
    dependencies: [
        .package(name: "DigitalInk", path: ".."),
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.0"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.5.0"),
    ],
    targets: [
        .target(
            name: "InkServer",
            dependencies: [
                .product(name: "DigitalInk", package: "DigitalInk"),
                .product(name: "DigitalInkModels", package: "DigitalInk"),
                .product(name: "Hummingbird", package: "hummingbird"),
            ],
            resources: [.copy("Page")]
        ),
        .executableTarget(
            name: "inkrec-serve",
            dependencies: [
                "InkServer",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .testTarget(
            name: "InkServerTests",
            dependencies: [
                "InkServer",
                .product(name: "HummingbirdTesting", package: "hummingbird"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
