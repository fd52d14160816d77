import AssayCore
import AssayJSON

/// A run summary drawn as one self-contained HTML page: no network, no external scripts, styles or
/// fonts (a Content-Security-Policy forbids them), inline SVG charts, light and dark, printable.
///
/// Bounded: at most ``maximumRows`` rows in the table of paths (the rest in one counted "other"
/// row) and examples for at most ``maximumExampledPaths`` paths. Every text from the data — paths,
/// values, messages, file names — is escaped.
struct HTMLReport {
    static let maximumRows = 500
    static let maximumExampledPaths = 100
    static let maximumBars = 12

    let summary: RunSummary
    let words: ReportStrings

    init(_ summary: RunSummary) {
        self.summary = summary
        words = ReportStrings.forLanguage(summary.language)
    }

    func render() -> String {
        var page = """
            <!DOCTYPE html>
            <html lang="\(escape(summary.language))">
            <head>
            <meta charset="utf-8">
            <meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <meta name="generator" content="assay \(escape(summary.assayVersion))">
            <title>\(escape(words.title)) — \(escape(summary.schema))</title>
            <style>\(Self.style)</style>
            </head>
            <body>
            <header>
            <h1>\(escape(words.title))</h1>
            <p class="meta">\(meta())</p>
            </header>
            <main>

            """
        page += headline()
        page += notes()
        if summary.invalid > 0 || summary.errors > 0 {
            page += "<div class=\"charts\">\n"
            page += section(words.mostFailingPaths, id: "chart-paths", bars(pathBars(), label: words.mostFailingPaths))
            page += section(
                words.errorsByKeyword, id: "chart-keywords", bars(keywordBars(), label: words.errorsByKeyword))
            page += "</div>\n"
            page += section(words.errorsPerDocument, id: "chart-histogram", histogram())
            page += section(words.failingPaths, id: "paths", table())
            page += section(words.examples, id: "examples", examples())
        } else {
            page += "<p class=\"all-valid\" id=\"all-valid\">\(escape(words.allValid))</p>\n"
        }
        page += """
            </main>
            <footer>\(escape(ReportStrings.fill(words.generatedBy, summary.assayVersion)))</footer>
            <script>\(Self.script)</script>
            </body>
            </html>

            """
        return page
    }

    // MARK: Parts

    private func meta() -> String {
        var parts = ["\(escape(words.schema)): <code>\(escape(summary.schema))</code>"]
        if !summary.inputs.isEmpty {
            parts.append(
                "\(escape(words.inputs)): "
                    + summary.inputs.map { "<code>\(escape($0))</code>" }.joined(separator: ", "))
        }
        if summary.shards > 1 { parts.append("\(summary.shards) \(escape(words.shards))") }
        return parts.joined(separator: " · ")
    }

    private func headline() -> String {
        let rate = summary.seconds > 0 ? Int.rounding(Double(summary.documents) / summary.seconds) : 0
        var cards = [
            card("documents", words.documents, summary.documents, number(summary.documents)),
            card(
                "valid", words.valid, max(0, summary.documents - summary.invalid),
                number(max(0, summary.documents - summary.invalid))),
            card(
                "invalid", words.invalid, summary.invalid, number(summary.invalid),
                detail: percent(summary.invalid, of: summary.documents), tone: summary.invalid > 0 ? "bad" : "good"),
            card(
                "errors", words.errors, summary.errors, number(summary.errors), tone: summary.errors > 0 ? "bad" : nil),
        ]
        if summary.notValidated > 0 {
            cards.append(
                card(
                    "not-validated", words.notValidated, summary.notValidated, number(summary.notValidated), tone: "bad"
                ))
        }
        if summary.seconds > 0 {
            cards.append(card("throughput", words.throughput, rate, number(rate), detail: words.documentsPerSecond))
        }
        if summary.bytes > 0 {
            let mean = summary.documents > 0 ? summary.bytes / summary.documents : 0
            cards.append(
                card(
                    "bytes", words.inputBytes, summary.bytes, Self.bytes(summary.bytes),
                    detail: ReportStrings.fill(words.perDocument, Self.bytes(mean))))
        }
        return "<section class=\"headline\" aria-label=\"\(escape(words.title))\">\n" + cards.joined() + "</section>\n"
    }

    private func card(
        _ metric: String, _ label: String, _ value: Int, _ shown: String, detail: String? = nil, tone: String? = nil
    ) -> String {
        var html = "<div class=\"card\(tone.map { " \($0)" } ?? "")\">"
        html += "<div class=\"label\">\(escape(label))</div>"
        html += "<div class=\"value\" data-metric=\"\(metric)\" data-value=\"\(value)\">\(shown)</div>"
        if let detail { html += "<div class=\"detail\">\(escape(detail))</div>" }
        return html + "</div>\n"
    }

    private func notes() -> String {
        var notes: [String] = []
        if summary.isApproximate {
            notes.append(ReportStrings.fill(words.approximate, number(summary.unlistedAtMost)))
        }
        if summary.truncatedDocuments > 0 {
            notes.append(ReportStrings.fill(words.truncated, number(summary.truncatedDocuments)))
        }
        if !summary.redacted.isEmpty {
            notes.append(ReportStrings.fill(words.redacted, summary.redacted.joined(separator: ", ")))
        }
        guard !notes.isEmpty else { return "" }
        return notes.map { "<p class=\"note\">\(escape($0))</p>\n" }.joined()
    }

    private func section(_ title: String, id: String, _ body: String) -> String {
        "<section id=\"\(id)\"><h2>\(escape(title))</h2>\n\(body)</section>\n"
    }

    private func pathBars() -> [(String, Int, Bool)] {
        summary.paths.prefix(Self.maximumBars).map { (Self.shownPath($0.path), $0.errors, $0.overcount > 0) }
    }

    private func keywordBars() -> [(String, Int, Bool)] {
        summary.keywords.sorted { ($1.value, $0.key) < ($0.value, $1.key) }.prefix(Self.maximumBars).map {
            ($0.key, $0.value, false)
        }
    }

    /// A horizontal bar chart: a label, a bar as long as the count, the count.
    private func bars(_ rows: [(label: String, count: Int, approximate: Bool)], label: String) -> String {
        let height = 24
        let maximum = max(1, rows.map(\.count).max() ?? 1)
        var svg =
            "<svg class=\"bars\" role=\"img\" aria-label=\"\(escape(label))\" viewBox=\"0 0 640 \(rows.count * height + 4)\" width=\"100%\" preserveAspectRatio=\"xMinYMin meet\">\n"
        for (index, row) in rows.enumerated() {
            let y = index * height + 2
            let width = max(1, Int.rounding(Double(row.count) / Double(maximum) * 300))
            let shown = row.label.count > 34 ? String(row.label.prefix(33)) + "…" : row.label
            svg += "<g><title>\(escape(row.label)): \(number(row.count))</title>"
            svg += "<text x=\"0\" y=\"\(y + 16)\" class=\"axis\">\(escape(shown))</text>"
            svg += "<rect x=\"260\" y=\"\(y + 3)\" width=\"\(width)\" height=\"\(height - 8)\" rx=\"2\" class=\"bar\"/>"
            svg +=
                "<text x=\"\(266 + width)\" y=\"\(y + 16)\" class=\"count\">\(row.approximate ? "≈" : "")\(number(row.count))</text></g>\n"
        }
        return svg + "</svg>\n"
    }

    /// The errors-per-document histogram: a column per bucket.
    private func histogram() -> String {
        let starts = RunSummary.bucketStarts
        let counts = summary.errorsPerDocument
        let maximum = max(1, counts.max() ?? 1)
        let column = 64
        var svg =
            "<svg class=\"histogram\" role=\"img\" aria-label=\"\(escape(words.errorsPerDocument))\" viewBox=\"0 0 \(starts.count * column + 8) 170\" width=\"100%\" preserveAspectRatio=\"xMinYMin meet\">\n"
        for (index, start) in starts.enumerated() {
            let end = index + 1 < starts.count ? starts[index + 1] - 1 : nil
            let label = end.map { $0 == start ? "\(start)" : "\(start)–\($0)" } ?? "\(start)+"
            let height = counts[index] == 0 ? 0 : max(2, Int.rounding(Double(counts[index]) / Double(maximum) * 120))
            let x = index * column + 8
            svg +=
                "<g data-bucket=\"\(start)\" data-documents=\"\(counts[index])\"><title>\(label): \(number(counts[index]))</title>"
            svg +=
                "<rect x=\"\(x)\" y=\"\(140 - height)\" width=\"\(column - 12)\" height=\"\(height)\" rx=\"2\" class=\"bar\"/>"
            svg +=
                "<text x=\"\(x + (column - 12) / 2)\" y=\"\(134 - height)\" class=\"count\" text-anchor=\"middle\">\(number(counts[index]))</text>"
            svg +=
                "<text x=\"\(x + (column - 12) / 2)\" y=\"158\" class=\"axis\" text-anchor=\"middle\">\(label)</text></g>\n"
        }
        return svg + "</svg>\n"
    }

    /// The table of failing paths: at most ``maximumRows`` rows, the long tail in one "other" row.
    private func table() -> String {
        let listed =
            summary.paths.count > Self.maximumRows
            ? Array(summary.paths.prefix(Self.maximumRows - 1)) : summary.paths
        var html = "<p class=\"hint\">\(escape(words.sortHint))</p>\n"
        html += "<div class=\"table-wrap\"><table class=\"sortable\" id=\"path-table\">\n<thead><tr>"
        let columns: [(String, String)] = [
            (words.path, "text"), (words.errors, "number"), (words.shareOfErrors, "number"),
            (words.documents, "number"), (words.shareOfDocuments, "number"), (words.keywords, "text"),
        ]
        for (index, column) in columns.enumerated() {
            html +=
                "<th scope=\"col\" data-type=\"\(column.1)\" data-column=\"\(index)\"\(index == 1 ? " aria-sort=\"descending\"" : "")><button type=\"button\">\(escape(column.0))</button></th>"
        }
        html += "</tr></thead>\n<tbody>\n"
        for (index, path) in listed.enumerated() {
            let approximate = path.overcount > 0
            let keywords = path.keywords.map { "\(escape($0.keyword)) \(number($0.errors))" }.joined(separator: ", ")
            let link = index < Self.maximumExampledPaths && path.keywords.contains { !$0.examples.isEmpty }
            let shown = escape(Self.shownPath(path.path))
            html +=
                "<tr data-path=\"\(escape(path.path))\" data-errors=\"\(path.errors)\" data-documents=\"\(path.documents)\">"
            html +=
                "<td data-sort=\"\(escape(path.path))\"><code>\(link ? "<a href=\"#example-\(index)\">\(shown)</a>" : shown)</code></td>"
            html +=
                "<td class=\"number\" data-sort=\"\(path.errors)\">\(approximate ? "<span title=\"−\(path.overcount)\">≈</span>" : "")\(number(path.errors))</td>"
            html += "<td class=\"number\" data-sort=\"\(path.errors)\">\(percent(path.errors, of: summary.errors))</td>"
            html += "<td class=\"number\" data-sort=\"\(path.documents)\">\(number(path.documents))</td>"
            html +=
                "<td class=\"number\" data-sort=\"\(path.documents)\">\(percent(path.documents, of: summary.documents))</td>"
            html += "<td data-sort=\"\(escape(path.keywords.first?.keyword ?? ""))\">\(keywords)</td></tr>\n"
        }
        let listedErrors = listed.reduce(0) { $0.adding($1.errors) }
        let hiddenPaths = max(0, summary.distinctPaths - listed.count)
        if hiddenPaths > 0 {
            let errors = max(0, summary.errors - listedErrors)
            html += "<tr class=\"other\" data-other-paths=\"\(hiddenPaths)\" data-errors=\"\(errors)\">"
            html +=
                "<td><em>\(escape(words.other)): \(escape(ReportStrings.fill(words.otherPaths, (summary.unlistedAtMost > 0 ? "≈" : "") + number(hiddenPaths))))</em></td>"
            html +=
                "<td class=\"number\">\(number(errors))</td><td class=\"number\">\(percent(errors, of: summary.errors))</td>"
            html += "<td></td><td></td><td></td></tr>\n"
        }
        return html + "</tbody>\n</table></div>\n"
    }

    private func examples() -> String {
        var html = ""
        for (index, path) in summary.paths.prefix(min(Self.maximumExampledPaths, Self.maximumRows - 1)).enumerated() {
            let tallies = path.keywords.filter { !$0.examples.isEmpty }
            guard !tallies.isEmpty else { continue }
            html += "<details class=\"example\" id=\"example-\(index)\"\(index < 3 ? " open" : "")>"
            html += "<summary><code>\(escape(Self.shownPath(path.path)))</code> — "
            html += tallies.map { "\(escape($0.keyword)) (\(number($0.errors)))" }.joined(separator: ", ")
            html += "</summary>\n"
            for tally in tallies {
                for example in tally.examples {
                    html += "<figure class=\"document\"><figcaption><code>\(escape(example.source))</code>"
                    html += " — \(escape(tally.keyword))</figcaption>\n<ul class=\"messages\">"
                    for error in example.errors {
                        let place = error.instanceLocation.isEmpty ? "/" : error.instanceLocation
                        html += "<li><code>\(escape(place))</code>: \(escape(error.message))</li>"
                    }
                    html += "</ul>\n"
                    if example.excerpt { html += "<p class=\"hint\">\(escape(words.excerpt))</p>" }
                    var highlights: [String: [String]] = [:]
                    for error in example.errors where !error.instanceLocation.isEmpty {
                        highlights[error.instanceLocation, default: []].append(error.message)
                    }
                    var body = ""
                    JSONHighlighter(highlights: highlights, excerpt: example.excerpt)
                        .write(example.document, pointer: "", indent: 0, into: &body)
                    html += "<pre class=\"json\">\(body)</pre></figure>\n"
                }
            }
            html += "</details>\n"
        }
        return html
    }

    // MARK: Text

    /// A path as shown: `/` for the document itself.
    static func shownPath(_ path: String) -> String { path.isEmpty ? "/" : path }

    private func number(_ value: Int) -> String {
        Self.grouped(value, separator: summary.language == "ru" ? "\u{202F}" : ",")
    }

    static func grouped(_ value: Int, separator: String) -> String {
        let digits = String(value.magnitude)
        var text = ""
        for (index, digit) in digits.enumerated() {
            if index > 0, (digits.count - index) % 3 == 0 { text += separator }
            text.append(digit)
        }
        return (value < 0 ? "-" : "") + text
    }

    private func percent(_ part: Int, of whole: Int) -> String {
        guard whole > 0 else { return "–" }
        let tenths = Int.rounding(Double(part) * 1000 / Double(whole))
        return "\(tenths / 10)\(summary.language == "ru" ? "," : ".")\(tenths % 10) %"
    }

    static func bytes(_ count: Int) -> String {
        let units = ["B", "KB", "MB", "GB", "TB"]
        var value = Double(count)
        var unit = 0
        while value >= 1000, unit < units.count - 1 {
            value /= 1000
            unit += 1
        }
        if unit == 0 { return "\(count) B" }
        let tenths = Int.rounding(value * 10)
        return "\(tenths / 10).\(tenths % 10) \(units[unit])"
    }

    private func escape(_ text: String) -> String { HTML.escape(text) }

    // MARK: Style and script

    static let style = """
        :root{color-scheme:light dark;--bg:#ffffff;--fg:#1b1f24;--muted:#57606a;--line:#d0d7de;--card:#f6f8fa;\
        --bar:#2f6fb3;--bad:#b42318;--good:#1a7f37;--mark:#ffe1dc;--mark-fg:#6b0f08;--link:#0b5cad}
        @media (prefers-color-scheme:dark){:root{--bg:#0f1419;--fg:#e6edf3;--muted:#9aa5b1;--line:#30363d;\
        --card:#161b22;--bar:#6ea8fe;--bad:#ff7b72;--good:#56d364;--mark:#5a1d1a;--mark-fg:#ffdcd7;--link:#79b8ff}}
        *{box-sizing:border-box}
        body{margin:0;padding:24px;background:var(--bg);color:var(--fg);\
        font:15px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,"Noto Sans",sans-serif}
        main,header,footer{max-width:1100px;margin:0 auto}
        h1{font-size:1.6em;margin:0 0 4px}
        h2{font-size:1.15em;margin:28px 0 8px;border-bottom:1px solid var(--line);padding-bottom:4px}
        code,pre{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,"Liberation Mono",monospace;font-size:.9em}
        a{color:var(--link)}
        .meta,.hint,footer{color:var(--muted)}
        .headline{display:grid;grid-template-columns:repeat(auto-fit,minmax(150px,1fr));gap:12px;margin:16px 0}
        .card{background:var(--card);border:1px solid var(--line);border-radius:8px;padding:10px 14px}
        .card .label{color:var(--muted);font-size:.85em}
        .card .value{font-size:1.6em;font-weight:600;font-variant-numeric:tabular-nums}
        .card.bad .value{color:var(--bad)}
        .card.good .value{color:var(--good)}
        .card .detail{color:var(--muted);font-size:.85em}
        .note{background:var(--card);border-left:4px solid var(--bar);padding:6px 12px;margin:8px 0}
        .charts{display:grid;grid-template-columns:repeat(auto-fit,minmax(min(420px,100%),1fr));gap:0 24px}
        svg text{fill:var(--fg);font-size:12px;font-family:ui-monospace,Menlo,Consolas,monospace}
        svg .bar{fill:var(--bar)}
        svg .count{fill:var(--muted)}
        svg.histogram{max-width:620px;display:block}
        .table-wrap{overflow-x:auto}
        table{border-collapse:collapse;width:100%;font-variant-numeric:tabular-nums}
        th,td{border-bottom:1px solid var(--line);padding:4px 8px;text-align:left;vertical-align:top}
        th{white-space:nowrap}
        th button{all:unset;cursor:pointer;font-weight:600}
        th button:focus-visible{outline:2px solid var(--bar);outline-offset:2px}
        th[aria-sort=ascending] button::after{content:" ▲"}
        th[aria-sort=descending] button::after{content:" ▼"}
        td.number,th:nth-child(n+2):nth-child(-n+5){text-align:right}
        tr.other td{color:var(--muted)}
        details.example{border:1px solid var(--line);border-radius:8px;padding:6px 12px;margin:8px 0}
        details.example summary{cursor:pointer;font-weight:600}
        figure.document{margin:10px 0}
        figcaption{color:var(--muted)}
        ul.messages{margin:4px 0;padding-left:20px}
        pre.json{background:var(--card);border:1px solid var(--line);border-radius:6px;padding:8px 12px;\
        overflow:auto;max-height:480px;white-space:pre-wrap;word-break:break-word}
        mark{background:var(--mark);color:var(--mark-fg);border-bottom:2px solid var(--bad);border-radius:2px;padding:0 1px}
        .all-valid{font-size:1.2em;color:var(--good)}
        @media print{body{padding:0;font-size:11pt}.hint,th button::after{display:none}\
        details.example{break-inside:avoid}pre.json{max-height:none}\
        a{color:inherit;text-decoration:none}}
        """

    /// Sorts the table by a column when its heading is clicked (numbers by value, text by
    /// collation); the "other" row stays last. Before printing, opens every example (a closed
    /// `<details>` prints its summary alone) and closes again those that were closed after.
    static let script = """
        (function(){var closed=[];window.addEventListener('beforeprint',function(){\
        closed=Array.prototype.filter.call(document.querySelectorAll('details'),function(d){return !d.open});\
        closed.forEach(function(d){d.open=true})});window.addEventListener('afterprint',function(){\
        closed.forEach(function(d){d.open=false});closed=[]})})();\
        (function(){var t=document.getElementById('path-table');if(!t)return;\
        var heads=t.querySelectorAll('th');heads.forEach(function(th){th.querySelector('button').addEventListener('click',function(){\
        var column=+th.dataset.column,number=th.dataset.type==='number',\
        order=th.getAttribute('aria-sort')==='descending'?'ascending':'descending';\
        heads.forEach(function(h){h.removeAttribute('aria-sort')});th.setAttribute('aria-sort',order);\
        var body=t.tBodies[0],rows=Array.prototype.slice.call(body.rows),other=rows.filter(function(r){return r.classList.contains('other')});\
        rows=rows.filter(function(r){return !r.classList.contains('other')});\
        rows.sort(function(a,b){var x=a.cells[column].dataset.sort,y=b.cells[column].dataset.sort;\
        var c=number?(+x)-(+y):x.localeCompare(y);return order==='ascending'?c:-c});\
        rows.concat(other).forEach(function(r){body.appendChild(r)})})})})();
        """
}

/// HTML escaping of text from the data.
enum HTML {
    static func escape(_ text: String) -> String {
        guard text.contains(where: { "&<>\"'".contains($0) }) else { return text }
        var result = ""
        result.reserveCapacity(text.count + 16)
        for character in text {
            switch character {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&#39;"
            default: result.append(character)
            }
        }
        return result
    }
}

/// Writes a JSON value as indented, escaped HTML, each failing value in a `<mark>` whose title
/// holds its messages.
struct JSONHighlighter {
    let highlights: [String: [String]]
    /// Whether the value is an ``Excerpt``: its markers of left-out elements keep indices counted.
    let excerpt: Bool

    func write(_ value: JSONValue, pointer: String, indent: Int, into html: inout String) {
        let messages = pointer.isEmpty ? nil : highlights[pointer]
        if let messages { html += "<mark title=\"\(HTML.escape(messages.joined(separator: "\n")))\">" }
        defer { if messages != nil { html += "</mark>" } }
        let pad = String(repeating: "  ", count: indent + 1)
        let closing = String(repeating: "  ", count: indent)
        switch value {
        case .object(let object):
            guard !object.isEmpty else {
                html += "{}"
                return
            }
            html += "{\n"
            for (index, member) in object.enumerated() {
                html += pad + HTML.escape(JSONValue.string(member.key).jsonString()) + ": "
                write(
                    member.value, pointer: pointer + "/" + JSONValue.escape(member.key), indent: indent + 1, into: &html
                )
                html += index + 1 < object.count ? ",\n" : "\n"
            }
            html += closing + "}"
        case .array(let elements):
            guard !elements.isEmpty else {
                html += "[]"
                return
            }
            html += "[\n"
            var position = 0
            for (index, element) in elements.enumerated() {
                html += pad
                if excerpt, let skipped = Excerpt.markedCount(element) {
                    html += "<span class=\"elided\">\(HTML.escape(element.jsonString()))</span>"
                    position = position.adding(skipped)
                } else {
                    write(element, pointer: pointer + "/" + String(position), indent: indent + 1, into: &html)
                    position = position.adding(1)
                }
                html += index + 1 < elements.count ? ",\n" : "\n"
            }
            html += closing + "]"
        default:
            html += HTML.escape(value.jsonString())
        }
    }

}
