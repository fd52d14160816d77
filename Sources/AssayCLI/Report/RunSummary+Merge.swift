extension RunSummary {
    /// Inputs named in a merged summary; more are counted, not listed, in a last entry
    /// `… and N more` (which a later merge counts again).
    static let maximumInputs = 100
    private static let moreInputsPrefix = "\u{2026} and "

    /// N of an entry `… and N more`, or `nil` for an input's name.
    private static func moreInputs(in entry: String) -> Int? {
        guard entry.hasPrefix(moreInputsPrefix), entry.hasSuffix(" more") else { return nil }
        return Int(entry.dropFirst(moreInputsPrefix.count).dropLast(" more".count))
    }

    /// Combines the summaries of shards of one run (the Spark job's partitions) into one.
    ///
    /// Totals, keywords, codes and the histogram add up exactly. A path listed by some parts and
    /// not by another that left paths out gets that part's ``unlistedAtMost`` added to its count
    /// and to its overcount (it may have had that many errors there), so each path's count stays
    /// an upper bound and `errors - overcount` a lower bound; the merged list keeps the most
    /// failing ``Limits/paths``. Examples are drawn from the parts in proportion to the documents
    /// each saw.
    ///
    /// - Throws: ``CLIError`` when the parts' messages are in different languages.
    static func merged(_ parts: [(file: String, summary: RunSummary)]) throws(CLIError) -> RunSummary {
        guard let first = parts.first else { throw CLIError.usage("report merge: no summary given") }
        var result = RunSummary()
        result.assayVersion = AssayTool.version
        result.language = first.summary.language
        result.schema = first.summary.schema
        result.limits = first.summary.limits
        result.shards = 0
        var sketch = DistinctSketch()
        var sketched = false
        var inputs: [String] = []
        var moreInputs = 0
        for (file, part) in parts {
            guard part.language == result.language else {
                throw CLIError.usage(
                    "\(file): its messages are in \(part.language), those of \(first.file) in \(result.language): "
                        + "merge summaries of runs in one language (--lang)")
            }
            result.limits.paths = max(result.limits.paths, part.limits.paths)
            result.limits.examples = max(result.limits.examples, part.limits.examples)
            result.shards = result.shards.adding(part.shards)
            result.documents = result.documents.adding(part.documents)
            result.invalid = result.invalid.adding(part.invalid)
            result.errors = result.errors.adding(part.errors)
            result.notValidated = result.notValidated.adding(part.notValidated)
            result.truncatedDocuments = result.truncatedDocuments.adding(part.truncatedDocuments)
            result.bytes = result.bytes.adding(part.bytes)
            result.seconds += part.seconds
            for index in result.errorsPerDocument.indices {
                result.errorsPerDocument[index] = result.errorsPerDocument[index].adding(part.errorsPerDocument[index])
            }
            for (name, count) in part.keywords {
                result.keywords[name] = result.keywords[name, default: 0].adding(count)
            }
            for (name, count) in part.codes { result.codes[name] = result.codes[name, default: 0].adding(count) }
            for input in part.inputs where !inputs.contains(input) {
                if let more = Self.moreInputs(in: input) {
                    moreInputs = moreInputs.adding(more)
                } else if inputs.count < maximumInputs {
                    inputs.append(input)
                } else {
                    moreInputs += 1
                }
            }
            for pointer in part.redacted where !result.redacted.contains(pointer) { result.redacted.append(pointer) }
            if part.distinctSketch.count == 1 << DistinctSketch.bits {
                sketch.merge(DistinctSketch(registers: part.distinctSketch))
                sketched = true
            } else {
                for path in part.paths { sketch.insert(path.path) }
                sketched = sketched || !part.paths.isEmpty
            }
        }
        if moreInputs > 0 { inputs.append("\(moreInputsPrefix)\(moreInputs) more") }
        result.inputs = inputs

        // Every path any part lists, in the order first met.
        var order: [String] = []
        var byPath: [String: PathTally] = [:]
        for (_, part) in parts {
            for path in part.paths where byPath[path.path] == nil {
                order.append(path.path)
                byPath[path.path] = PathTally(path: path.path, errors: 0, overcount: 0, documents: 0, keywords: [])
            }
        }
        let indexes = parts.map { part in
            Dictionary(part.summary.paths.enumerated().map { ($1.path, $0) }, uniquingKeysWith: { first, _ in first })
        }
        var random = SplitMix64(seed: 0x5EED_A55A)
        for name in order {
            var merged = byPath[name]!
            var keywordParts: [String: [KeywordTally]] = [:]
            var keywordOrder: [String] = []
            for ((_, part), index) in zip(parts, indexes) {
                if let place = index[name] {
                    let path = part.paths[place]
                    merged.errors = merged.errors.adding(path.errors)
                    merged.overcount = merged.overcount.adding(path.overcount)
                    merged.documents = merged.documents.adding(path.documents)
                    for tally in path.keywords {
                        if keywordParts[tally.keyword] == nil { keywordOrder.append(tally.keyword) }
                        keywordParts[tally.keyword, default: []].append(tally)
                    }
                } else {
                    merged.errors = merged.errors.adding(part.unlistedAtMost)
                    merged.overcount = merged.overcount.adding(part.unlistedAtMost)
                }
            }
            merged.keywords = keywordOrder.map { keyword in
                let tallies = keywordParts[keyword]!
                return KeywordTally(
                    keyword: keyword, errors: tallies.reduce(0) { $0.adding($1.errors) },
                    documents: tallies.reduce(0) { $0.adding($1.documents) },
                    examples: drawExamples(from: tallies, count: result.limits.examples, random: &random))
            }.sorted { $0.errors > $1.errors }
            byPath[name] = merged
        }
        let ranked = order.compactMap { byPath[$0] }.sorted { ($1.errors, $0.path) < ($0.errors, $1.path) }
        result.paths = Array(ranked.prefix(result.limits.paths))
        // A path no part lists may have had up to each part's bound there; one dropped here, its count.
        let unlistedEverywhere = parts.reduce(0) { $0.adding($1.summary.unlistedAtMost) }
        result.unlistedAtMost = max(unlistedEverywhere, ranked.dropFirst(result.limits.paths).first?.errors ?? 0)
        result.distinctSketch = sketched ? sketch.registers : []
        return result
    }

    /// `count` examples from the parts' reservoirs, each part's share in proportion to the
    /// documents it saw (the largest remainders rounded up), picked at random within it.
    private static func drawExamples(
        from tallies: [KeywordTally], count: Int, random: inout SplitMix64
    ) -> [Example] {
        let available = tallies.reduce(0) { $0 + $1.examples.count }
        guard available > count else { return tallies.flatMap(\.examples) }
        let documents = max(1, Double(tallies.reduce(0) { $0.adding($1.documents) }))
        var shares = tallies.map { min($0.examples.count, Int(Double(count) * Double($0.documents) / documents)) }
        var left = count - shares.reduce(0, +)
        // What rounding left goes to the parts with the most documents that still have examples.
        for index in tallies.indices.sorted(by: { tallies[$0].documents > tallies[$1].documents }) where left > 0 {
            let extra = min(left, tallies[index].examples.count - shares[index])
            shares[index] += extra
            left -= extra
        }
        var picked: [Example] = []
        for (tally, share) in zip(tallies, shares) {
            var pool = tally.examples
            for _ in 0..<share {
                picked.append(pool.remove(at: Int(random.next(below: pool.count))))
            }
        }
        return picked
    }
}

extension Int {
    /// `value` rounded, `Int.max` or `Int.min` beyond them, 0 for NaN: a figure computed from a
    /// summary written elsewhere never traps.
    static func rounding(_ value: Double) -> Int {
        guard !value.isNaN else { return 0 }
        if value >= 9.2e18 { return Int.max }
        if value <= -9.2e18 { return Int.min }
        return Int(value.rounded())
    }

    /// The sum, or `Int.max` where it would overflow: counts from summaries written elsewhere are
    /// not trusted to be small.
    func adding(_ other: Int) -> Int {
        let (sum, overflow) = addingReportingOverflow(other)
        return overflow ? (other > 0 ? Int.max : Int.min) : sum
    }
}
