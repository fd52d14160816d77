/// A one-line progress display on standard error: bytes done, documents per second, time left.
///
/// It is drawn only when standard error is a terminal, the input is large and `--quiet` is off; it
/// redraws at most ten times a second and erases itself before other output is written.
final class ProgressBar {
    private let sink: ByteSink
    private let total: Int?
    private let clock: @Sendable () -> Double
    private let started: Double
    private var lastDrawn = -1.0
    private var visible = false

    init(sink: ByteSink, total: Int?, clock: @escaping @Sendable () -> Double) {
        self.sink = sink
        self.total = total
        self.clock = clock
        self.started = clock()
    }

    /// Redraws if a tenth of a second has passed, and always at the end of a file of known size.
    func update(bytes: Int, documents: Int) {
        let now = clock()
        guard now - lastDrawn >= 0.1 || bytes == total else { return }
        lastDrawn = now
        sink.write(Self.render(bytes: bytes, total: total, documents: documents, elapsed: now - started))
        sink.flush()
        visible = true
    }

    /// Erases the bar (before other output, and at the end).
    func clear() {
        guard visible else { return }
        sink.write(ANSI.clearLine)
        sink.flush()
        visible = false
    }

    /// The bar's text: `\r[#####.....]  45%  15.6/34.5 MB  123456 docs/s  0:03 left`.
    static func render(bytes: Int, total: Int?, documents: Int, elapsed: Double) -> String {
        let rate = elapsed > 0 ? Int(Double(documents) / elapsed) : 0
        let megabytes = Double(bytes) / 1e6
        var text = ANSI.clearLine
        if let total, total > 0 {
            let fraction = min(1, Double(bytes) / Double(total))
            let width = 24
            let filled = Int(fraction * Double(width))
            text += "[" + String(repeating: "#", count: filled) + String(repeating: ".", count: width - filled) + "] "
            text += "\(Int(fraction * 100))%  "
            text += "\(format(megabytes))/\(format(Double(total) / 1e6)) MB  \(rate) docs/s"
            if fraction > 0, elapsed > 0 {
                let left = Int(elapsed / fraction - elapsed)
                text += "  \(left / 60):\(String(left % 60).leftPadded(to: 2)) left"
            }
        } else {
            text += "\(format(megabytes)) MB  \(documents) docs  \(rate) docs/s"
        }
        return text
    }

    private static func format(_ value: Double) -> String {
        let tenths = Int((value * 10).rounded())
        return "\(tenths / 10).\(tenths % 10)"
    }
}

extension String {
    func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
