import AssayCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// The one hostile input of issue 23 that the command line cannot reach: `@Validatable`-style models
// nested in each other, the innermost value bad, checked on demand. `ScalingProbe nested DEPTH`.

/// A model that holds the next one.
struct Chain: Validatable, Sendable {
    var value: Int
    var next: [Chain]

    static let validation: Validation<Chain> = [
        .property(\.value, "value", .range(1...)),
        .nested(\.next, "next"),
    ]
}

let arguments = CommandLine.arguments
guard arguments.count == 3, arguments[1] == "nested", let depth = Int(arguments[2]) else {
    print("usage: ScalingProbe nested DEPTH")
    exit(2)
}
var chain = Chain(value: -1, next: [])
for _ in 0..<depth { chain = Chain(value: 1, next: [chain]) }
print(chain.issues().count)
