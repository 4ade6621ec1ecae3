// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "DigitalInk",
    platforms: [.macOS(.v13), .iOS(.v16)],
    products: [
        .library(name: "DigitalInk", targets: ["DigitalInk"]),
        // The shipped models as resources: link it to carry every model inside a program.
        .library(name: "DigitalInkModels", targets: ["DigitalInkModels"]),
        .executable(name: "inkrec", targets: ["inkrec"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-crypto", from: "3.12.0"),
        // Build tool only (`make docs`): a command plugin, not a dependency of any target.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.4.0"),
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
        // Models/ is the embedded repository in a checkout and, through this target, a resource bundle
        // that travels with a built program (Bundle.module). A new model (or a shared network folder such as
        // latn-bilstm96x3) adds a line here.
        .target(
            name: "DigitalInkModels",
            dependencies: ["DigitalInk"],
            path: "Models",
            sources: ["Swift"],
            resources: [
                .copy("manifest.json"),
                .copy("ar"),
                .copy("bn"),
                .copy("arab-bilstm96x3"),
                .copy("beng-bilstm96x3"),
                .copy("bg"),
                .copy("ca"),
                .copy("cjk-bilstm192x3"),
                .copy("cs"),
                .copy("cyrl-bilstm96x3"),
                .copy("da"),
                .copy("de"),
                .copy("de-CH"),
                .copy("deva-bilstm96x3"),
                .copy("el"),
                .copy("en-US"),
                .copy("es"),
                .copy("fa"),
                .copy("fi"),
                .copy("fil"),
                .copy("fr"),
                .copy("grek-bilstm96x3"),
                .copy("hang-bilstm96x3"),
                .copy("he"),
                .copy("hebr-bilstm96x3"),
                .copy("hi"),
                .copy("hr"),
                .copy("hu"),
                .copy("id"),
                .copy("is"),
                .copy("it"),
                .copy("ja"),
                .copy("ko"),
                .copy("latn-bilstm96x3"),
                .copy("latn-vi-bilstm96x3"),
                .copy("lt"),
                .copy("lv"),
                .copy("mk"),
                .copy("ms"),
                .copy("nb"),
                .copy("nl"),
                .copy("pl"),
                .copy("pt"),
                .copy("ro"),
                .copy("ru"),
                .copy("sk"),
                .copy("sl"),
                .copy("sr"),
                .copy("sv"),
                .copy("ta"),
                .copy("taml-bilstm96x3"),
                .copy("th"),
                .copy("thai-bilstm96x3"),
                .copy("tr"),
                .copy("uk"),
                .copy("ur"),
                .copy("vi"),
                .copy("zh-Hans"),
                .copy("zh-Hant"),
                .copy("zxx-Zsym-x-shapes"),
            ]
        ),
        .executableTarget(
            name: "inkrec",
            dependencies: [
                "DigitalInk",
                "DigitalInkModels",
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
