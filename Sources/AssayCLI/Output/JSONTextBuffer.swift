import AssayCore
import AssayJSON

/// JSON text written through a pointer into memory that grows by doubling, then handed to an array
/// in one copy: for text made of many short pieces (the command line's report of an invalid
/// record: a few dozen strings and fixed pieces per error), where appending each piece to an array
/// costs more than the piece.
struct JSONTextBuffer: ~Copyable {
    private var base: UnsafeMutablePointer<UInt8>
    private var capacity: Int
    /// The bytes written.
    private(set) var count = 0

    /// An empty buffer with room for `capacity` bytes before it grows.
    init(capacity: Int = 1_024) {
        self.capacity = max(capacity, 16)
        base = UnsafeMutablePointer<UInt8>.allocate(capacity: self.capacity)
    }

    deinit { base.deallocate() }

    /// Where the next `more` bytes go, growing first if they would not fit.
    @inline(__always)
    private mutating func room(_ more: Int) -> UnsafeMutablePointer<UInt8> {
        if more > capacity &- count { grow(to: count + more) }
        return base + count
    }

    @inline(never)
    private mutating func grow(to needed: Int) {
        let larger = max(needed, capacity * 2)
        let moved = UnsafeMutablePointer<UInt8>.allocate(capacity: larger)
        moved.initialize(from: base, count: count)
        base.deallocate()
        base = moved
        capacity = larger
    }

    /// Appends one byte.
    @inline(__always)
    mutating func append(_ byte: UInt8) {
        room(1).pointee = byte
        count &+= 1
    }

    /// Appends `text` as it is (a fixed piece of the output, read without making an array).
    @inline(__always)
    mutating func append(_ text: StaticString) {
        let length = text.utf8CodeUnitCount
        room(length).update(from: text.utf8Start, count: length)
        count &+= length
    }

    /// Appends `value` in decimal.
    mutating func appendDecimal(_ value: Int) {
        guard value >= 0 else {
            for byte in String(value).utf8 { append(byte) }
            return
        }
        count &+= writeDecimal(value, to: room(20))
    }

    /// Appends `string` escaped for the inside of a JSON string, as
    /// ``JSONValue/appendEscaped(_:to:)`` does.
    mutating func appendEscaped(_ string: String) {
        var string = string
        string.withUTF8 { appendEscaped($0) }
    }

    /// Appends the UTF-8 `bytes` escaped for the inside of a JSON string (``writeEscape(of:to:)``),
    /// the runs between escapes copied whole.
    mutating func appendEscaped(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let source = bytes.baseAddress else { return }
        let end = bytes.count
        // Six bytes at most for each byte (`\u00XX`).
        let target = room(end &* 6)
        var written = 0
        var start = 0
        while true {
            let index = firstByteToEscape(source, from: start, to: end)
            let run = index &- start
            if run > 0 { (target + written).update(from: source + start, count: run) }
            written &+= run
            guard index < end else { break }
            written &+= writeEscape(of: source[index], to: target + written)
            start = index &+ 1
        }
        count &+= written
    }

    /// Appends the bytes written to `output`, in one copy.
    func write(to output: inout [UInt8]) {
        output.append(contentsOf: UnsafeBufferPointer(start: base, count: count))
    }
}
