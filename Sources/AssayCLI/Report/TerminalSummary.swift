/// The short table `--format text` prints before its summary line when documents were invalid:
/// the most failing paths with their counts and keywords, then the errors per keyword, so that a
/// CI log shows the shape of the failure without a file.
enum TerminalSummary {
    static let paths = 5
    static let keywords = 8
    static let pathWidth = 40

    static func render(_ summary: RunSummary, color: Bool) -> String {
        guard !summary.paths.isEmpty else { return "" }
        let words = ReportStrings.forLanguage(summary.language)
        let shown = summary.paths.prefix(paths)
        let width = min(
            pathWidth,
            max(words.mostFailingPaths.count, shown.map { cell(HTMLReport.shownPath($0.path)).count }.max() ?? 0))
        let errorsWidth = max(words.errors.count, shown.map { count($0).count }.max() ?? 0)
        let documentsWidth = max(words.documents.count, shown.map { String($0.documents).count }.max() ?? 0)
        var text = ""
        var heading = pad(words.mostFailingPaths, width) + "  " + pad(words.errors, errorsWidth, right: true)
        heading += "  " + pad(words.documents, documentsWidth, right: true) + "  " + words.keywords
        text += (color ? ANSI.bold + heading + ANSI.reset : heading) + "\n"
        for path in shown {
            let name = pad(cell(HTMLReport.shownPath(path.path)), width)
            text += color ? ANSI.cyan + name + ANSI.reset : name
            text +=
                "  " + pad(count(path), errorsWidth, right: true) + "  "
                + pad(String(path.documents), documentsWidth, right: true)
            text +=
                "  "
                + TerminalText.printable(path.keywords.map { "\($0.keyword) \($0.errors)" }.joined(separator: ", "))
            text += "\n"
        }
        let more = summary.distinctPaths - shown.count
        if more > 0 {
            let errors = max(0, summary.errors - shown.reduce(0) { $0.adding($1.errors) })
            text +=
                ReportStrings.fill(words.moreRows, "\(summary.unlistedAtMost > 0 ? "≈" : "")\(more)", String(errors))
                + "\n"
        }
        let ranked = summary.keywords.sorted { ($1.value, $0.key) < ($0.value, $1.key) }
        var line = ranked.prefix(keywords).map { "\($0.key) \($0.value)" }.joined(separator: ", ")
        if ranked.count > keywords { line += ", …" }
        text += (color ? ANSI.bold + words.keywords + ":" + ANSI.reset : words.keywords + ":") + " "
        text += TerminalText.printable(line) + "\n"
        return text
    }

    private static func count(_ path: RunSummary.PathTally) -> String {
        (path.overcount > 0 ? "≈" : "") + String(path.errors)
    }

    /// A path made safe for a terminal and cut to ``pathWidth`` characters.
    private static func cell(_ path: String) -> String {
        let printable = TerminalText.printable(path)
        return printable.count > pathWidth ? String(printable.prefix(pathWidth - 1)) + "…" : printable
    }

    private static func pad(_ text: String, _ width: Int, right: Bool = false) -> String {
        let fill = String(repeating: " ", count: max(0, width - text.count))
        return right ? fill + text : text + fill
    }
}
