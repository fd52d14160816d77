import AssayCore
import AssayJSON
import AssayRegex
import AssaySchema
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// Probes for docs/robustness.md where the command line cannot reach: `ScalingProbe nested DEPTH`
// checks models nested DEPTH deep, the innermost value bad, on demand (issue 23's exponential case);
// `ScalingProbe email` gives EmailAddressValidator's verdict on each line of standard input;
// `ScalingProbe email-format email|idn-email` the verdict of a schema `{"format": …}` (asserted) on
// each line of standard input as a JSON string, checked in place as `assay` checks documents;
// `ScalingProbe regex [FILE]` LinearRegex's verdict and first match on each `[pattern, input, flags]` line (Benchmarks/regex_differential.py);
// `ScalingProbe regex-bench FILE ROUNDS` times LinearRegex on each `{"pattern", "subjects"}` line of
// FILE (Benchmarks/regex_bench.py).

/// A model that holds the next one.
struct Chain: Validatable, Sendable {
    var value: Int
    var next: [Chain]

    static let validation: Validation<Chain> = [
        .property(\.value, "value", .range(1...)),
        .nested(\.next, "next"),
    ]
}

/// Prints `answer` of each line of standard input, one line each, in blocks of 64 KiB; then exits.
func answerEachLine(_ answer: (String) -> String) -> Never {
    var output = ""
    while let line = readLine(strippingNewline: true) {
        output += answer(line) + "\n"
        if output.utf8.count > 1 << 16 {
            print(output, terminator: "")
            output = ""
        }
    }
    print(output, terminator: "")
    exit(0)
}

let arguments = CommandLine.arguments
if arguments.count == 2, arguments[1] == "email" {
    // `ScalingProbe email`: one address per line on standard input; for each, `valid` or the reason
    // EmailAddressValidator's defaults give (Benchmarks/email_compare.py compares them with a peer).
    let validator = EmailAddressValidator()
    answerEachLine { validator.rejection(for: $0).map(\.identifier) ?? "valid" }
}
if arguments.count == 3, arguments[1] == "email-format", let format = TextFormat(rawValue: arguments[2]) {
    // `valid` when the schema `{"format": …}` accepts the line as a JSON string; otherwise the reason
    // EmailAddressValidator gives with the format's options (for the tally; `other` when it has none).
    let schema = try! JSONSchema(
        JSONValue.object(["format": .string(format.rawValue)]), options: .init(assertFormats: true))
    let explainer = EmailAddressValidator(
        options: format == .email
            ? .init(allowsInternational: false, allowsQuotedLocalPart: true, allowsDomainLiteral: true) : .rfc)
    answerEachLine { line in
        let document = try! JSONDocument(parsing: JSONValue.string(line).jsonString())
        return schema.isValid(document) ? "valid" : explainer.rejection(for: line).map(\.identifier) ?? "other"
    }
}
if arguments.count == 2 || arguments.count == 3, arguments[1] == "regex" {
    // `ScalingProbe regex FILE`: the lines of FILE instead of standard input (Benchmarks/scaling.py).
    var fileLines: IndexingIterator<[Substring]>? = nil
    if arguments.count == 3 {
        guard let text = try? String(contentsOfFile: arguments[2], encoding: .utf8) else {
            print("cannot read \(arguments[2])")
            exit(2)
        }
        fileLines = text.split(separator: "\n").makeIterator()
    }
    // One JSON array `[pattern, input]` or `[pattern, input, flags]` per line; for each, `1 START END`
    // (matches; the first match's range in scalars) or `0`, or `E unsupported: reason` /
    // `E syntax: reason` when the pattern does not compile. Patterns repeat: the last is kept.
    var compiled: (String, String, Result<LinearRegex, RegexSyntaxError>)?
    var output = ""
    while let line = fileLines != nil ? fileLines!.next().map(String.init) : readLine(strippingNewline: true) {
        guard let pair = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String],
            pair.count == 2 || pair.count == 3, let options = LinearRegex.Options(flags: pair.count == 3 ? pair[2] : "")
        else {
            print("bad line: \(line)")
            exit(2)
        }
        let flags = pair.count == 3 ? pair[2] : ""
        if compiled?.0 != pair[0] || compiled?.1 != flags {
            compiled = (
                pair[0], flags, Result { () throws(RegexSyntaxError) in try LinearRegex(pair[0], options: options) }
            )
        }
        switch compiled!.2 {
        case .success(let regex):
            if regex.firstMatchExists(in: pair[1]) {
                if let range = regex.firstMatch(in: pair[1]) {
                    let scalars = pair[1].unicodeScalars
                    let start = scalars.distance(from: scalars.startIndex, to: range.lowerBound)
                    output += "1 \(start) \(start + scalars.distance(from: range.lowerBound, to: range.upperBound))\n"
                } else {
                    output += "1 none\n"
                }
            } else {
                output += "0\n"
            }
        case .failure(let error):
            output += (error.isUnsupportedFeature ? "E unsupported: " : "E syntax: ") + error.reason + "\n"
        }
        if output.utf8.count > 1 << 16 {
            print(output, terminator: "")
            output = ""
        }
    }
    print(output, terminator: "")
    exit(0)
}
if arguments.count == 4, arguments[1] == "regex-bench", let rounds = Int(arguments[3]) {
    // For each line: the matches among the subjects, and the best of ROUNDS timed passes over them
    // (nanoseconds), or `E` when the pattern does not compile.
    let text = try String(contentsOfFile: arguments[2], encoding: .utf8)
    for line in text.split(separator: "\n") {
        guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
            let pattern = object["pattern"] as? String, let subjects = object["subjects"] as? [String]
        else {
            print("bad line")
            exit(2)
        }
        guard let regex = try? LinearRegex(pattern) else {
            print("E")
            continue
        }
        var best = UInt64.max
        var matches = 0
        for _ in 0..<rounds {
            matches = 0
            let start = DispatchTime.now().uptimeNanoseconds
            for subject in subjects where regex.firstMatchExists(in: subject) { matches += 1 }
            best = min(best, DispatchTime.now().uptimeNanoseconds - start)
        }
        print(matches, best)
    }
    exit(0)
}
guard arguments.count == 3, arguments[1] == "nested", let depth = Int(arguments[2]) else {
    print("usage: ScalingProbe nested DEPTH | email | email-format email|idn-email | regex | regex-bench FILE ROUNDS")
    exit(2)
}
var chain = Chain(value: -1, next: [])
for _ in 0..<depth { chain = Chain(value: 1, next: [chain]) }
print(chain.issues().count)
