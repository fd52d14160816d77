// swift-tools-version: 6.2
import PackageDescription

// Assay's HTTP adapters and the example service: a package of its own, so that a user of the core
// products (AssayCore, AssayJSON, the `assay` command line) never downloads or builds SwiftNIO,
// Hummingbird or Vapor. It depends on the core package by path; an app depends on it by URL with
// the core package (see the README's "HTTP APIs" section).
let package = Package(
    name: "AssayIntegrations",
    platforms: [.macOS(.v14), .iOS(.v17), .tvOS(.v17), .visionOS(.v1)],
    products: [
        .library(name: "AssayHummingbird", targets: ["AssayHummingbird"]),
        .library(name: "AssayVapor", targets: ["AssayVapor"]),
        .library(name: "AssayOpenAPI", targets: ["AssayOpenAPI"]),
        .executable(name: "clients-service", targets: ["clients-service"]),
        .executable(name: "notes-service", targets: ["notes-service"]),
    ],
    dependencies: [
        .package(name: "Assay", path: ".."),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/vapor/vapor", from: "4.122.3"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.6.0"),
        .package(url: "https://github.com/apple/swift-openapi-runtime", from: "1.13.4"),
        .package(url: "https://github.com/hummingbird-project/swift-openapi-hummingbird", from: "2.1.0"),
        .package(url: "https://github.com/apple/swift-openapi-urlsession", from: "1.4.0"),
    ],
    targets: [
        .target(
            name: "AssayHummingbird",
            dependencies: [
                .product(name: "AssayHTTP", package: "Assay"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "NIOCore", package: "swift-nio"),
            ],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        .target(
            name: "AssayVapor",
            dependencies: [
                .product(name: "AssayHTTP", package: "Assay"),
                .product(name: "Vapor", package: "vapor"),
                .product(name: "NIOCore", package: "swift-nio"),
            ],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        // Request and response validation for swift-openapi-generator's servers and clients, from
        // the OpenAPI document the generator reads.
        .target(
            name: "AssayOpenAPI",
            dependencies: [
                .product(name: "AssayHTTP", package: "Assay"),
                .product(name: "AssaySchema", package: "Assay"),
                .product(name: "AssayCLI", package: "Assay"),
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        .testTarget(
            name: "AssayOpenAPITests",
            dependencies: [
                "AssayOpenAPI",
                .product(name: "AssaySchema", package: "Assay"),
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "OpenAPIHummingbird", package: "swift-openapi-hummingbird"),
                .product(name: "OpenAPIURLSession", package: "swift-openapi-urlsession"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ],
            resources: [.copy("shop.yaml")],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        // AssayOpenAPI's example: a swift-openapi-generator server (its code — types, server protocol
        // and the client its tests use — generated from openapi.yaml once and kept in Generated/, see
        // Integrations/scripts/generate-openapi.sh).
        .target(
            name: "NotesService",
            dependencies: [
                "AssayOpenAPI", "AssayHummingbird",
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "OpenAPIHummingbird", package: "swift-openapi-hummingbird"),
                .product(name: "Hummingbird", package: "hummingbird"),
            ],
            path: "Examples/NotesService/Sources/NotesService",
            exclude: ["openapi-generator-config.yaml"],
            resources: [.copy("openapi.yaml")],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        .executableTarget(
            name: "notes-service",
            dependencies: [
                "NotesService",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            path: "Examples/NotesService/Sources/notes-service",
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        // The notes service through a generated client and AssayClientMiddleware, over loopback.
        .testTarget(
            name: "NotesServiceTests",
            dependencies: [
                "NotesService", "AssayOpenAPI",
                .product(name: "AssayCore", package: "Assay"),
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "OpenAPIURLSession", package: "swift-openapi-urlsession"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
            ],
            path: "Examples/NotesService/Tests/NotesServiceTests",
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        // The clients service through a client swift-openapi-generator wrote from its /openapi.json.
        .testTarget(
            name: "ClientsServiceClientTests",
            dependencies: [
                "ClientsService", "AssayOpenAPI",
                .product(name: "AssayCore", package: "Assay"),
                .product(name: "AssayJSON", package: "Assay"),
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "OpenAPIURLSession", package: "swift-openapi-urlsession"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
            ],
            path: "Examples/ClientsService/Tests/ClientsServiceClientTests",
            exclude: ["openapi-generator-config.yaml", "openapi.json"],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        // The example service: clients (name, age, email) over HTTP, kept in SQLite.
        .target(
            name: "ClientsService",
            dependencies: [
                "AssayHummingbird",
                .product(name: "AssayCodable", package: "Assay"),
                .product(name: "AssayGRDB", package: "Assay"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "NIOCore", package: "swift-nio"),
            ],
            path: "Examples/ClientsService/Sources/ClientsService",
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        .executableTarget(
            name: "clients-service",
            dependencies: [
                "ClientsService",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            path: "Examples/ClientsService/Sources/clients-service",
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        // The load benchmark's server: the example service and the same create route without Assay.
        .executableTarget(
            name: "http-bench",
            dependencies: [
                "ClientsService", "AssayHummingbird",
                .product(name: "AssayHTTP", package: "Assay"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOEmbedded", package: "swift-nio"),
            ],
            path: "Benchmarks/http-bench",
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        // The adapters' documentation snippets, compiled here and copied into the documents.
        .target(
            name: "AdapterSnippets",
            dependencies: [
                "AssayHummingbird", "AssayVapor", "AssayOpenAPI",
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "OpenAPIHummingbird", package: "swift-openapi-hummingbird"),
                .product(name: "OpenAPIURLSession", package: "swift-openapi-urlsession"),
                .product(name: "AssayCodable", package: "Assay"),
                .product(name: "AssaySchema", package: "Assay"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Vapor", package: "vapor"),
            ],
            path: "Examples/Snippets",
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        // Types generated at build time from a JSON Schema and an OpenAPI document by the generator's
        // plugin: the target holds the documents and assay-generator.json, and no Swift but a comment.
        .target(
            name: "GeneratedModels",
            dependencies: [.product(name: "AssayCodable", package: "Assay")],
            path: "Examples/GeneratedModels/Sources/GeneratedModels",
            swiftSettings: [.swiftLanguageMode(.v6)],
            plugins: [.plugin(name: "AssayGeneratorPlugin", package: "Assay")]
        ),
        .testTarget(
            name: "GeneratedModelsTests",
            dependencies: [
                "GeneratedModels",
                .product(name: "AssayCodable", package: "Assay"),
                .product(name: "AssaySchema", package: "Assay"),
            ],
            path: "Examples/GeneratedModels/Tests/GeneratedModelsTests",
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        // The models, routes and cases both adapters' tests share.
        .target(
            name: "IntegrationTestSupport",
            dependencies: [
                .product(name: "AssayHTTP", package: "Assay"),
                .product(name: "AssayCodable", package: "Assay"),
                .product(name: "AssaySchema", package: "Assay"),
            ],
            path: "Tests/IntegrationTestSupport",
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        .testTarget(
            name: "AssayHummingbirdTests",
            dependencies: [
                "AssayHummingbird", "IntegrationTestSupport",
                .product(name: "AssayCodable", package: "Assay"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "NIOCore", package: "swift-nio"),
            ],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        .testTarget(
            name: "AssayVaporTests",
            dependencies: [
                "AssayVapor", "IntegrationTestSupport",
                .product(name: "AssayCodable", package: "Assay"),
                .product(name: "VaporTesting", package: "vapor"),
                .product(name: "NIOCore", package: "swift-nio"),
            ],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        .testTarget(
            name: "ClientsServiceTests",
            dependencies: [
                "ClientsService",
                .product(name: "AssaySchema", package: "Assay"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "NIOCore", package: "swift-nio"),
            ],
            path: "Examples/ClientsService/Tests/ClientsServiceTests",
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
    ]
)
