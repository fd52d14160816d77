import Foundation
import Testing

@testable import AssayCLI

/// A sink on a file descriptor writes a block's whole report (the flush threshold or more) without
/// copying it into its buffer first: the bytes still reach the file in the order written, and a
/// failure stops everything after it.
@Suite struct ByteSinkTests {
    @Test func largeWritesKeepTheirOrder() throws {
        let folder = try TemporaryFolder()
        let path = try folder.file("out.bin", "")
        let descriptor = open(path, O_WRONLY | O_TRUNC)
        try #require(descriptor >= 0)
        let sink = ByteSink(fileDescriptor: descriptor, flushThreshold: 1_000)
        var expected: [UInt8] = []
        // Small pieces buffered, then pieces at, under and over the threshold, as arrays and slices.
        for (index, size) in [10, 999, 1_000, 1, 5_000, 0, 1_001, 3, 70_000, 2].enumerated() {
            let piece = (0..<size).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ index) }
            if index % 2 == 0 { sink.write(piece) } else { sink.write(piece[...]) }
            expected += piece
        }
        sink.write("end")
        expected += Array("end".utf8)
        sink.flush()
        close(descriptor)
        #expect(sink.failure == nil)
        #expect(Array(FileManager.default.contents(atPath: path) ?? Data()) == expected)
    }

    @Test(
        "a large write to a full disk is the sink's failure, and nothing is written after it",
        .enabled(if: FileManager.default.fileExists(atPath: "/dev/full"), "skipped: this machine has no /dev/full"))
    func largeWriteToAFullDisk() {
        let descriptor = open("/dev/full", O_WRONLY)
        defer { close(descriptor) }
        let sink = ByteSink(fileDescriptor: descriptor, flushThreshold: 1_000)
        sink.write([UInt8](repeating: 0x41, count: 10))
        sink.write([UInt8](repeating: 0x42, count: 4_000))
        #expect(sink.failure == "No space left on device")
        sink.write([UInt8](repeating: 0x43, count: 4_000))
        sink.flush()
        #expect(sink.failure == "No space left on device")
    }
}
