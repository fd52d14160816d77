import AssayCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// Probes for docs/robustness.md where the command line cannot reach: `ScalingProbe nested DEPTH`
// checks models nested DEPTH deep, the innermost value bad, on demand (issue 23's exponential case);
// `ScalingProbe email` gives EmailAddressValidator's verdict on each line of standard input.

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
if arguments.count == 2, arguments[1] == "email" {
    // `ScalingProbe email`: one address per line on standard input; for each, `valid` or the reason
    // EmailAddressValidator's defaults give (Benchmarks/email_compare.py compares them with a peer).
    let validator = EmailAddressValidator()
    var output = ""
    while let line = readLine(strippingNewline: true) {
        output += (validator.rejection(for: line).map(\.identifier) ?? "valid") + "\n"
        if output.utf8.count > 1 << 16 {
            print(output, terminator: "")
            output = ""
        }
    }
    print(output, terminator: "")
    exit(0)
}
guard arguments.count == 3, arguments[1] == "nested", let depth = Int(arguments[2]) else {
    print("usage: ScalingProbe nested DEPTH | ScalingProbe email")
    exit(2)
}
var chain = Chain(value: -1, next: [])
for _ in 0..<depth { chain = Chain(value: 1, next: [chain]) }
print(chain.issues().count)
