// swift-tools-version: 6.0
// The README's first program, as a package that depends on DigitalInk by path: CI builds it, moves
// the source tree away and runs it (scripts/check-relocation).
import PackageDescription

let package = Package(
    name: "FirstProgram",
    platforms: [.macOS(.v13), .iOS(.v16)],
    dependencies: [.package(name: "DigitalInk", path: "../..")],
    targets: [
        .executableTarget(
            name: "FirstProgram",
            dependencies: [
                .product(name: "DigitalInk", package: "DigitalInk"),
                .product(name: "DigitalInkModels", package: "DigitalInk"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
