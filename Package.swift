// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "DigitalInk",
    platforms: [.macOS(.v13), .iOS(.v16)],
    products: [
        .library(name: "DigitalInk", targets: ["DigitalInk"]),
        .executable(name: "inkrec", targets: ["inkrec"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-crypto", from: "3.12.0"),
    ],
    targets: [
        // OpenBLAS + LAPACKE on Linux (libopenblas-dev, liblapacke-dev); Accelerate on Apple platforms.
        .systemLibrary(
            name: "_CBLAS",
            path: "Sources/_CBLAS",
            providers: [.apt(["libopenblas-dev", "liblapacke-dev"])]
        ),
        // The LSTM step in AVX2 + FMA, chosen at run time (see Sources/_InkKernels/include/_InkKernels.h).
        .target(name: "_InkKernels", path: "Sources/_InkKernels"),
        .target(
            name: "DigitalInk",
            dependencies: [
                "_InkKernels",
                .target(name: "_CBLAS", condition: .when(platforms: [.linux])),
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            linkerSettings: [.linkedFramework("Accelerate", .when(platforms: [.macOS, .iOS]))]
        ),
        .executableTarget(
            name: "inkrec",
            dependencies: [
                "DigitalInk",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .testTarget(
            name: "DigitalInkTests",
            dependencies: ["DigitalInk"],
            resources: [.copy("Fixtures")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
