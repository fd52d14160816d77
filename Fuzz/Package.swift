// swift-tools-version: 6.2
// libFuzzer targets for Assay, in a package of their own: they build only with the fuzzer runtime
// (`scripts/fuzz.sh` builds and runs them), so the main package never sees them.
import Foundation
import PackageDescription

// libFuzzer without its `main` (scripts/fuzz.sh says where the toolchain keeps it): main.swift hands
// control to LLVMFuzzerRunDriver. With -sanitize=fuzzer, libFuzzer's own `main` would clash with the
// `main` SwiftPM gives every executable, and with the macro tool's.
let fuzzerLibraries =
    ProcessInfo.processInfo.environment["ASSAY_FUZZER_LIBRARIES"] ?? "/opt/swift/usr/lib/clang/21/lib/linux"

let package = Package(
    name: "AssayFuzz",
    dependencies: [.package(name: "Assay", path: "..")],
    targets: [
        .executableTarget(
            name: "AssayFuzz",
            dependencies: [
                .product(name: "AssayRegex", package: "Assay"),
                .product(name: "AssayCore", package: "Assay"),
                .product(name: "AssayJSON", package: "Assay"),
                .product(name: "AssaySchema", package: "Assay"),
                .product(name: "AssayCodable", package: "Assay"),
                .product(name: "AssayCLI", package: "Assay"),
            ],
            swiftSettings: [.swiftLanguageMode(.v6)],
            linkerSettings: [
                .unsafeFlags([
                    "-sanitize=address", "-L", fuzzerLibraries, "-lclang_rt.fuzzer_no_main-x86_64", "-lstdc++",
                ])
            ]
        )
    ]
)
