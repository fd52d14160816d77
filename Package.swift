// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "Assay",
    platforms: [.macOS(.v14), .iOS(.v17), .tvOS(.v17), .watchOS(.v10), .visionOS(.v1)],
    products: [
        .library(name: "AssayCore", targets: ["AssayCore"]),
        .library(name: "AssayJSON", targets: ["AssayJSON"]),
        .library(name: "AssaySchema", targets: ["AssaySchema"]),
        .executable(name: "assay-examples", targets: ["AssayExamples"]),
    ],
    targets: [
        .target(
            name: "AssayCore",
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        .target(
            name: "AssayJSON",
            dependencies: ["AssayCore"],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        .target(
            name: "AssaySchema",
            dependencies: ["AssayCore", "AssayJSON"],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        .executableTarget(
            name: "AssayExamples",
            dependencies: ["AssayCore", "AssayJSON", "AssaySchema"],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        .executableTarget(
            name: "AssayBench",
            dependencies: ["AssayJSON", "AssayCore", "AssaySchema"],
            path: "Benchmarks/Sources/AssayBench",
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        .testTarget(
            name: "AssayJSONTests",
            dependencies: ["AssayJSON"],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        .testTarget(
            name: "AssaySchemaTests",
            dependencies: ["AssaySchema"],
            exclude: ["known-failures.txt"],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        .testTarget(
            name: "AssayCoreTests",
            dependencies: ["AssayCore", "AssayExamples"],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
    ]
)
