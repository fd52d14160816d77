// swift-tools-version: 6.2
import CompilerPluginSupport
import PackageDescription

let package = Package(
    name: "Assay",
    platforms: [.macOS(.v14), .iOS(.v17), .tvOS(.v17), .watchOS(.v10), .visionOS(.v1)],
    products: [
        .library(name: "AssayRegex", targets: ["AssayRegex"]),
        .library(name: "AssayCore", targets: ["AssayCore"]),
        .library(name: "AssayJSON", targets: ["AssayJSON"]),
        .library(name: "AssaySchema", targets: ["AssaySchema"]),
        .library(name: "AssayCodable", targets: ["AssayCodable"]),
        .library(name: "AssayGRDB", targets: ["AssayGRDB"]),
        .library(name: "AssayCLI", targets: ["AssayCLI"]),
        .library(name: "AssayHTTP", targets: ["AssayHTTP"]),
        .library(name: "AssayGenerator", targets: ["AssayGenerator"]),
        .executable(name: "assay", targets: ["assay"]),
        .plugin(name: "AssayGeneratorPlugin", targets: ["AssayGeneratorPlugin"]),
        .executable(name: "assay-examples", targets: ["AssayExamples"]),
        .executable(name: "roster", targets: ["roster"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/jpsim/Yams", from: "6.2.2"),
        .package(url: "https://github.com/swiftlang/swift-syntax", from: "603.0.1"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
    ],
    targets: [
        // ECMA-262 patterns in linear time; depends on nothing else in Assay.
        .target(
            name: "AssayRegex",
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        .target(
            name: "AssayCore",
            dependencies: ["AssayRegex"],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        .target(name: "CAssayStructure"),
        .target(
            name: "AssayJSON",
            dependencies: ["AssayCore", "CAssayStructure"],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        .target(
            name: "AssaySchema",
            dependencies: ["AssayRegex", "AssayCore", "AssayJSON"],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        .macro(
            name: "AssayMacros",
            dependencies: [
                .product(name: "SwiftSyntax", package: "swift-syntax"),
                .product(name: "SwiftSyntaxMacros", package: "swift-syntax"),
                .product(name: "SwiftSyntaxBuilder", package: "swift-syntax"),
                .product(name: "SwiftParser", package: "swift-syntax"),
                .product(name: "SwiftDiagnostics", package: "swift-syntax"),
                .product(name: "SwiftCompilerPlugin", package: "swift-syntax"),
            ],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        .target(
            name: "AssayCodable",
            dependencies: ["AssayCore", "AssayJSON", "AssayMacros"],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        // RFC 9457 problem details, Accept-Language and request bodies, with no server dependency:
        // the HTTP adapters (a package of their own, Integrations/) build on it.
        .target(
            name: "AssayHTTP",
            dependencies: ["AssayCore", "AssayJSON", "AssayCodable", "AssaySchema"],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        .target(
            name: "AssayGenerator",
            dependencies: ["AssayJSON", "AssayRegex", "AssaySchema"],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        .target(
            name: "AssayGRDB",
            dependencies: ["AssayCore", .product(name: "GRDB", package: "GRDB.swift")],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        .target(
            name: "AssayCLI",
            dependencies: [
                "AssayRegex", "AssayCore", "AssayJSON", "AssaySchema", "AssayGenerator",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Yams", package: "Yams"),
            ],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        .executableTarget(
            name: "assay",
            dependencies: ["AssayCLI"],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        // Generates a target's types from its schemas at build time, with the `assay` executable.
        .plugin(
            name: "AssayGeneratorPlugin",
            capability: .buildTool(),
            dependencies: ["assay"]
        ),
        .target(
            name: "AssaySeedModels",
            dependencies: ["AssayCore"],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        .executableTarget(
            name: "AssayExamples",
            dependencies: [
                "AssayRegex", "AssayCore", "AssayJSON", "AssaySchema", "AssayCodable", "AssayGRDB", "AssaySeedModels",
                "RosterKit", "AssayCLI", "AssayHTTP", "AssayGenerator",
                .product(name: "GRDB", package: "GRDB.swift"),
            ],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        // Seed 000's roster app on SQLite: the library holds the app, the executable parses arguments.
        .target(
            name: "RosterKit",
            dependencies: [
                "AssayCore", "AssayCodable", "AssayGRDB", .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            path: "Examples/Roster/Sources/RosterKit",
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        .executableTarget(
            name: "roster",
            dependencies: ["RosterKit"],
            path: "Examples/Roster/Sources/roster",
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        .executableTarget(
            name: "AssayBench",
            dependencies: ["AssayJSON", "AssayCore", "AssaySchema", "AssayCodable"],
            path: "Benchmarks/Sources/AssayBench",
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        .executableTarget(
            name: "ScalingProbe",
            dependencies: ["AssayCore", "AssayJSON", "AssayRegex", "AssaySchema"],
            path: "Benchmarks/Sources/ScalingProbe",
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        .executableTarget(
            name: "StoreBench",
            dependencies: ["AssayGRDB", "RosterKit", .product(name: "GRDB", package: "GRDB.swift")],
            path: "Benchmarks/Sources/StoreBench",
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        // The plugin's own GeneratorPlan.swift, linked into a test target of its own.
        .testTarget(
            name: "AssayGeneratorPluginTests",
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        .testTarget(
            name: "AssayJSONTests",
            dependencies: ["AssayJSON"],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        // What several test targets share: a seeded generator of test inputs.
        .target(
            name: "AssayTestSupport",
            path: "Tests/Support",
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        .testTarget(
            name: "AssaySchemaTests",
            dependencies: ["AssaySchema", "AssayTestSupport"],
            exclude: ["known-failures.txt"],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        .testTarget(
            name: "AssayGeneratorTests",
            dependencies: ["AssayGenerator", "AssayCodable", "AssaySchema", "AssayJSON"],
            exclude: [
                "Golden/client.schema.json", "Golden/sample.schema.json", "Golden/fallback.schema.json",
                "Golden/union.schema.json", "Golden/members.schema.json", "Golden/conditional.schema.json",
                "Golden/external.schema.json", "Golden/remote/address.json", "Golden/arrays.schema.json",
                "Golden/overlap.schema.json", "Golden/beside.schema.json", "Golden/siblings.schema.json",
                "Golden/tuple.schema.json", "Golden/dependencies.schema.json", "Golden/nullable.schema.json",
            ],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        .testTarget(
            name: "AssayHTTPTests",
            dependencies: ["AssayHTTP", "AssayCore", "AssayJSON", "AssayCodable", "AssaySchema"],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        .testTarget(
            name: "AssayCLITests",
            dependencies: ["AssayCLI", "AssayJSON", "AssayTestSupport"],
            exclude: ["Snapshots"],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        .testTarget(
            name: "AssayCodableTests",
            dependencies: [
                "AssayCodable", "AssayMacros", "AssaySchema", "AssayTestSupport",
                .product(name: "SwiftSyntaxMacrosGenericTestSupport", package: "swift-syntax"),
                .product(name: "SwiftSyntaxMacroExpansion", package: "swift-syntax"),
            ],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        .testTarget(
            name: "AssayGRDBTests",
            dependencies: ["AssayGRDB", "AssayTestSupport", .product(name: "GRDB", package: "GRDB.swift")],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        .testTarget(
            name: "RosterTests",
            dependencies: ["RosterKit", "AssayGRDB", .product(name: "GRDB", package: "GRDB.swift")],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        .testTarget(
            name: "AssayCoreTests",
            dependencies: ["AssayCore", "AssayRegex", "AssaySeedModels"],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        .testTarget(
            name: "AssayRegexTests",
            dependencies: ["AssayRegex"],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
    ]
)
