// swift-tools-version: 6.0
// libFuzzer targets for Assay, in a package of their own: they build only with the fuzzer runtime
// (`scripts/fuzz.sh` builds and runs them), so the main package never sees them.
import PackageDescription

let package = Package(
    name: "AssayFuzz",
    dependencies: [.package(name: "Assay", path: "..")],
    targets: [
        .executableTarget(
            name: "AssayFuzz",
            dependencies: [
                .product(name: "AssayCore", package: "Assay"),
                .product(name: "AssayJSON", package: "Assay"),
                .product(name: "AssaySchema", package: "Assay"),
                .product(name: "AssayCodable", package: "Assay"),
                .product(name: "AssayCLI", package: "Assay"),
            ],
            swiftSettings: [.swiftLanguageMode(.v6), .unsafeFlags(["-parse-as-library"])],
            // libFuzzer (and its `main`) is linked into this executable alone: the macro tool that
            // AssayCodable builds has a `main` of its own.
            linkerSettings: [.unsafeFlags(["-sanitize=fuzzer,address"])]
        )
    ]
)
