import AssayCore
import AssayJSON
import Foundation

/// What one run of `assay validate` found, aggregated: the JSON object `--summary` writes, that
/// `assay report merge` combines and `assay report` draws. Bounded whatever the input: at most
/// ``Limits/paths`` failing paths (the most failing), each with at most ``Limits/examples``
/// example documents per keyword of at most ``Limits/exampleBytes`` bytes.
///
/// Counts are exact unless the run met more distinct failing paths than it keeps; then each listed
/// path's `errors` is an upper bound and `errors - overcount` a lower bound (the Space-Saving
/// algorithm's guarantee, kept by merging), and any path not listed has at most
/// ``unlistedAtMost`` errors. `docs/report.md` documents every member.
struct RunSummary: Sendable, Equatable {
    /// The value of the `format` member.
    static let formatName = "assay-run-summary"
    /// The version this build reads and writes; another is refused.
    static let version = 1

    /// How much a summary keeps.
    struct Limits: Sendable, Equatable {
        /// Failing paths listed.
        var paths = 1_000
        /// Example documents per path and keyword.
        var examples = 3
        /// The largest example document kept whole, in bytes of compact JSON; a larger one is cut
        /// down to the members on the way to its failing values.
        var exampleBytes = 2_048
    }

    /// An error of an example document.
    struct ExampleError: Sendable, Equatable {
        var instanceLocation: String
        var keyword: String
        var code: String
        var message: String
    }

    /// One example document of a failing path and keyword.
    struct Example: Sendable, Equatable {
        /// `FILE:LINE` (NDJSON) or `FILE#N` (the n-th document of a JSON or YAML file).
        var source: String
        /// The document, redacted, excerpted when it was larger than ``Limits/exampleBytes``.
        var document: JSONValue
        /// Whether ``document`` is an excerpt (members and elements left out as `"…"`).
        var excerpt: Bool
        /// The document's errors (at most ``RunSummary/exampleErrors``).
        var errors: [ExampleError]
    }

    /// The failures of one keyword at one path.
    struct KeywordTally: Sendable, Equatable {
        var keyword: String
        var errors: Int
        /// Documents with this keyword failing at this path: the reservoir's population.
        var documents: Int
        var examples: [Example]
    }

    /// A failing path, array indices folded (`/items/*/price`).
    struct PathTally: Sendable, Equatable {
        var path: String
        var errors: Int
        /// How many of ``errors`` may belong to other paths (0: exact).
        var overcount: Int
        /// Documents with at least one error at this path (a lower bound when ``overcount`` > 0).
        var documents: Int
        var keywords: [KeywordTally]
    }

    /// The bounds of the errors-per-document histogram: bucket `i` holds the invalid documents
    /// with `bucketStarts[i]` up to the next start (exclusive) errors; the last is open.
    static let bucketStarts = [1, 2, 3, 5, 9, 17, 33, 65, 129]
    /// Errors kept with an example document.
    static let exampleErrors = 20

    var assayVersion = AssayTool.version
    var language = "en"
    var schema = ""
    var inputs: [String] = []
    /// How many summaries this one combines (1 for a run).
    var shards = 1
    var limits = Limits()
    var documents = 0
    var invalid = 0
    var errors = 0
    /// Documents not validated because they crossed a limit (counted as invalid too).
    var notValidated = 0
    /// Documents whose errors stopped at `--max-errors`.
    var truncatedDocuments = 0
    /// Bytes of input read.
    var bytes = 0
    /// Seconds spent, summed over shards.
    var seconds = 0.0
    /// Invalid documents per bucket of ``bucketStarts``.
    var errorsPerDocument = Array(repeating: 0, count: RunSummary.bucketStarts.count)
    /// Errors per keyword (`(not JSON)` for a document that could not be read) and per code.
    var keywords: [String: Int] = [:]
    var codes: [String: Int] = [:]
    /// The most failing paths, most errors first.
    var paths: [PathTally] = []
    /// Any path not in ``paths`` has at most this many errors (0: every failing path is listed).
    var unlistedAtMost = 0
    /// The registers of a HyperLogLog sketch of the distinct failing paths (empty when none).
    var distinctSketch: [UInt8] = []
    /// The redacted locations (`--redact` and the schema's `writeOnly` members).
    var redacted: [String] = []

    /// Whether any count is approximate.
    var isApproximate: Bool { unlistedAtMost > 0 || paths.contains { $0.overcount > 0 } }

    /// The number of distinct failing paths: exact when every one is listed, else estimated.
    var distinctPaths: Int {
        guard unlistedAtMost > 0 else { return paths.count }
        return max(paths.count, DistinctSketch(registers: distinctSketch).estimate)
    }

    /// The bucket of a document with `errors` errors.
    static func bucket(of errors: Int) -> Int {
        bucketStarts.lastIndex { $0 <= errors } ?? 0
    }
}

/// A HyperLogLog sketch (2¹⁰ registers, FNV-1a hashing, the same in every process): the number of
/// distinct failing paths within about 3%, in a kilobyte, merged exactly.
struct DistinctSketch: Sendable {
    static let bits = 10
    var registers: [UInt8]

    init(registers: [UInt8] = []) {
        self.registers = registers.count == 1 << Self.bits ? registers : Array(repeating: 0, count: 1 << Self.bits)
    }

    mutating func insert(_ text: String) {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        // SplitMix64's finalizer spreads FNV's low-entropy high bits.
        hash = (hash ^ (hash >> 30)) &* 0xbf58_476d_1ce4_e5b9
        hash = (hash ^ (hash >> 27)) &* 0x94d0_49bb_1331_11eb
        hash ^= hash >> 31
        let slot = Int(hash >> UInt64(64 - Self.bits))
        let rest = (hash << UInt64(Self.bits)) | (1 << UInt64(Self.bits - 1))
        registers[slot] = max(registers[slot], UInt8(rest.leadingZeroBitCount + 1))
    }

    mutating func merge(_ other: DistinctSketch) {
        for index in registers.indices { registers[index] = max(registers[index], other.registers[index]) }
    }

    var estimate: Int {
        let count = Double(registers.count)
        let sum = registers.reduce(0.0) { $0 + 1 / Double(UInt64(1) << UInt64($1)) }
        let raw = 0.7213 / (1 + 1.079 / count) * count * count / sum
        let zeros = registers.filter { $0 == 0 }.count
        if raw <= 2.5 * count, zeros > 0 { return Int.rounding(count * log(count / Double(zeros))) }
        return Int.rounding(raw)
    }
}
