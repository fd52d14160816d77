import Foundation
import Testing

@testable import AssayJSON

@Suite struct NDJSONReaderTests {
    func file(_ bytes: [UInt8]) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("ndjson-\(UUID().uuidString).ndjson")
            .path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    func readAll(_ path: String) throws -> [NDJSONRecord] {
        var reader = try NDJSONReader(path: path)
        var records: [NDJSONRecord] = []
        while let record = try reader.next() { records.append(record) }
        return records
    }

    @Test func readsLinesWithNumbersCRLFBOMAndBlankLines() throws {
        let text = "\u{FEFF}{\"a\":1}\r\n\n   \n{\"a\":2}\n\t\r\n{\"a\":3}"
        let path = try file(Array(text.utf8))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let records = try readAll(path)
        #expect(records.map(\.line) == [1, 4, 6])
        #expect(try records.map { try $0.parse().root["a"]?.int } == [1, 2, 3])
        #expect(records[0].bytes == Array("{\"a\":1}".utf8))
        #expect(records[1].offset == 17, "BOM 3 + 7 + CRLF 2 + LF 1 + 3 spaces + LF 1")
    }

    @Test func aMalformedLineIsReportedAndTheStreamGoesOn() throws {
        let path = try file(Array("{\"a\":1}\n{\"a\":,}\n[1,2,]\n{\"a\":4}\n".utf8))
        defer { try? FileManager.default.removeItem(atPath: path) }
        var reader = try NDJSONReader(path: path)
        var good: [Int] = []
        var bad: [(Int, Int, JSONParseError.Reason)] = []
        while let record = try reader.next() {
            do {
                good.append(try record.parse().root["a"]?.int ?? -1)
            } catch {
                bad.append((error.line, error.column, error.reason))
            }
        }
        #expect(good == [1, 4])
        #expect(bad.map(\.0) == [2, 3])
        #expect(bad.map(\.1) == [6, 5])
        #expect(bad.map(\.2) == [.unexpectedCharacter, .trailingComma])
    }

    @Test func linesLongerThanTheBufferAndManyLines() throws {
        let long = "{\"s\":\"" + String(repeating: "x", count: 3 * NDJSONReader.chunkSize) + "\"}"
        var lines = [long]
        for index in 0..<20_000 { lines.append("{\"i\":\(index)}") }
        let path = try file(Array((lines.joined(separator: "\n") + "\n").utf8))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let records = try readAll(path)
        #expect(records.count == 20_001)
        #expect(try records[0].parse().root["s"]?.string?.count == 3 * NDJSONReader.chunkSize)
        #expect(try records.last?.parse().root["i"]?.int == 19_999)
        #expect(records.last?.line == 20_001)
    }

    @Test func emptyFileAndUnreadablePaths() throws {
        let empty = try file([])
        defer { try? FileManager.default.removeItem(atPath: empty) }
        #expect(try readAll(empty).isEmpty)
        do {
            _ = try NDJSONReader(path: "/nonexistent/file.ndjson")
        } catch {
            #expect(error.description == "/nonexistent/file.ndjson: No such file or directory")
        }
        do {
            _ = try NDJSONReader(path: FileManager.default.temporaryDirectory.path)
            Issue.record("opened a directory")
        } catch {
            #expect(error.reason == "is a directory")
        }
    }

    @Test func invalidUTF8LineIsReportedWithItsLine() throws {
        let path = try file(Array("{\"a\":1}\n".utf8) + [0x22, 0xFF, 0x22, 0x0A] + Array("{\"a\":3}\n".utf8))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let records = try readAll(path)
        #expect(records.count == 3)
        #expect(throws: JSONParseError.self) { try records[1].parse() }
        do {
            _ = try records[1].parse()
        } catch {
            #expect(error.reason == .invalidUTF8)
            #expect(error.line == 2)
            #expect(error.offset == 9)
        }
    }

    /// Every record of every block, as (line, record bytes, line as written).
    func readBlocks(_ path: String) throws -> [(Int, [UInt8], [UInt8])] {
        var reader = try NDJSONReader(path: path)
        var records: [(Int, [UInt8], [UInt8])] = []
        while let block = try reader.nextBlock() {
            block.forEachRecord { line, record, written in
                records.append((line, Array(block.bytes[record]), Array(block.bytes[written])))
            }
        }
        return records
    }

    /// Small reads put read boundaries everywhere in a short input: lines and blocks read 16, 17 or
    /// 61 bytes at a time give the same records as the default read size.
    @Test func smallReadsGiveTheSameRecords() throws {
        let pieces = [
            "{\"a\":1}", "[]", "", "  ", "\r", "\"" + String(repeating: "é", count: 40) + "\"", "12345678901234567890",
        ]
        var state: UInt64 = 7
        for _ in 0..<200 {
            var text = ""
            for _ in 0..<12 {
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                text += pieces[Int(state >> 33) % pieces.count] + (state & 1 == 0 ? "\n" : "\r\n")
            }
            let bytes = Array(text.utf8)
            let path = try file(bytes)
            defer { try? FileManager.default.removeItem(atPath: path) }
            let expected = try readAll(path).map { [$0.line: $0.bytes] }
            let expectedBlocks = try readBlocks(path).map { "\($0.0):\($0.1)" }
            for size in [16, 17, 61] {
                let descriptor = open(path, O_RDONLY)
                var lines = NDJSONReader(fileDescriptor: descriptor, closeWhenDone: true, readSize: size)
                var records: [[Int: [UInt8]]] = []
                while let record = try lines.next() { records.append([record.line: record.bytes]) }
                #expect(records == expected, "read size \(size)")
                var blocks = NDJSONReader(fileDescriptor: open(path, O_RDONLY), closeWhenDone: true, readSize: size)
                var fromBlocks: [String] = []
                while let block = try blocks.nextBlock() {
                    block.forEachRecord { line, record, _ in fromBlocks.append("\(line):\(Array(block.bytes[record]))")
                    }
                }
                #expect(fromBlocks == expectedBlocks, "read size \(size)")
            }
        }
    }

    @Test func blocksHoldTheSameRecordsAsLines() throws {
        let long = "[\"" + String(repeating: "x", count: NDJSONReader.chunkSize * 3) + "\"]"
        let chunk = NDJSONReader.chunkSize
        // Lines of 64 bytes fill a chunk exactly (its last byte is a line break); lines one byte
        // longer or shorter put the chunk's end inside a line; one line of exactly a chunk, and of
        // a chunk and a byte; a long line among short ones.
        func lines(of length: Int, count: Int) -> String {
            String(repeating: String(repeating: "7", count: length - 1) + "\n", count: count)
        }
        let cases = [
            "\u{FEFF}{\"a\":1}\r\n\n   \n{\"a\":2}\n\t\r\n{\"a\":3}",
            "", "\n\n", "1\n2\n3\n", "1\n" + long + "\n2", long,
            String(repeating: "{\"k\":\"é\"}\r\n", count: 40_000),
            lines(of: 64, count: chunk / 64 * 3), lines(of: 65, count: chunk / 65 * 3), lines(of: 63, count: 13_000),
            lines(of: chunk, count: 2) + "5", lines(of: chunk + 1, count: 2), "1\n" + lines(of: chunk - 1, count: 1),
            lines(of: 300, count: 2_000) + long + "\n" + lines(of: 300, count: 2_000),
        ]
        for text in cases {
            let path = try file(Array(text.utf8))
            defer { try? FileManager.default.removeItem(atPath: path) }
            let lines = try readAll(path)
            let blocks = try readBlocks(path)
            #expect(blocks.map(\.0) == lines.map(\.line), "\(text.prefix(40))")
            #expect(blocks.map(\.1) == lines.map(\.bytes), "\(text.prefix(40))")
            // As written: the record plus a final \r where the line had one; never the BOM or \n.
            for (_, record, written) in blocks {
                #expect(written == record || written == record + [0x0D])
            }
        }
        // The two ways of reading can be mixed on one reader.
        let path = try file(Array("1\n2\n3\n4\n".utf8))
        defer { try? FileManager.default.removeItem(atPath: path) }
        var reader = try NDJSONReader(path: path)
        #expect(try reader.next()?.line == 1)
        var rest: [Int] = []
        while let block = try reader.nextBlock() { block.forEachRecord { line, _, _ in rest.append(line) } }
        #expect(rest == [2, 3, 4])
        #expect(reader.offset == 8)
    }

    /// From a pipe, a block comes back as soon as a whole line has arrived: a filter in a pipeline
    /// does not wait for a full chunk (or the end of the stream) before it answers.
    @Test func aPipeGivesEachLineWhenItArrives() throws {
        var descriptors: [Int32] = [0, 0]
        #expect(pipe(&descriptors) == 0)
        let (readEnd, writeEnd) = (descriptors[0], descriptors[1])
        final class Flag: @unchecked Sendable {
            private let lock = NSLock()
            private var value = false
            func set() { lock.withLock { value = true } }
            var isSet: Bool { lock.withLock { value } }
        }
        let answered = DispatchSemaphore(value: 0)
        let rescued = Flag()
        let finished = DispatchSemaphore(value: 0)
        // Should the reader wait for more than the line (the bug this guards against), the end of
        // the stream after ten seconds lets it return, and the test fails instead of hanging.
        Thread {
            if answered.wait(timeout: .now() + 10) == .timedOut {
                rescued.set()
                close(writeEnd)
            }
            finished.signal()
        }.start()
        let first = Array("1\n{\"a\":2}\n{\"b\"".utf8)
        #expect(write(writeEnd, first, first.count) == first.count)
        var reader = NDJSONReader(fileDescriptor: readEnd, closeWhenDone: true)
        var lines: [Int] = []
        try reader.nextBlock()?.forEachRecord { line, _, _ in lines.append(line) }
        answered.signal()
        finished.wait()
        #expect(!rescued.isSet)
        #expect(lines == [1, 2])
        if !rescued.isSet {
            #expect(write(writeEnd, ":3}", 3) == 3)
            close(writeEnd)
        }
        var rest: [(Int, [UInt8])] = []
        while let block = try reader.nextBlock() {
            block.forEachRecord { line, record, _ in rest.append((line, Array(block.bytes[record]))) }
        }
        #expect(rest.map(\.0) == [3])
        #expect(rest.map(\.1) == [Array(#"{"b":3}"#.utf8)])
    }

    /// A line over ``NDJSONReader/maximumLineBytes`` is not held whole: ``next()`` skips it with its
    /// length, ``nextBlock()`` hands it over in pieces of at most the limit plus a chunk, which put
    /// together are the line; the lines around it are read as usual either way.
    @Test func linesOverTheLimitAreSkippedOrHandedOverInPieces() throws {
        let chunk = NDJSONReader.chunkSize
        let limit = 1_000
        let long = "[\"" + String(repeating: "y", count: chunk * 5 + 17) + "\"]"
        let cases: [(text: String, lengths: [Int], over: [Bool])] = [
            ("{\"a\":1}\n" + long + "\r\n{\"a\":2}\n", [7, long.utf8.count, 7], [false, true, false]),
            ("\u{FEFF}" + long + "\n1\n" + long, [long.utf8.count, 1, long.utf8.count], [true, false, true]),
            (
                String(repeating: "2", count: limit) + "\n" + String(repeating: "3", count: limit + 1),
                [limit, limit + 1], [false, true]
            ),
        ]
        for (text, lengths, over) in cases {
            let path = try file(Array(text.utf8))
            defer { try? FileManager.default.removeItem(atPath: path) }
            var reader = try NDJSONReader(path: path)
            reader.maximumLineBytes = limit
            var records: [NDJSONRecord] = []
            while let record = try reader.next() { records.append(record) }
            #expect(records.map(\.length) == lengths)
            #expect(records.map(\.isOverLimit) == over)
            #expect(records.map(\.line) == Array(1...lengths.count))
            for record in records where record.isOverLimit {
                #expect(record.bytes.isEmpty)
                #expect(throws: JSONParseError.self) { try record.parse() }
                do {
                    _ = try record.parse()
                } catch {
                    #expect(error.reason == .sizeLimitExceeded)
                    #expect(error.detail == "the line is \(record.length) bytes long, over the limit of \(limit)")
                    #expect(error.line == record.line)
                }
            }
            for record in records where !record.isOverLimit { _ = try record.parse() }

            // In blocks: the same lines; the long ones in pieces that make the line as written.
            var blockReader = try NDJSONReader(path: path)
            blockReader.maximumLineBytes = limit
            var lines: [(line: Int, bytes: [UInt8])] = []
            var pieces: [UInt8] = []
            while let block = try blockReader.nextBlock() {
                if let part = block.longLine {
                    #expect(block.bytes.count <= (part.isFirst ? limit + chunk : chunk))
                    #expect(part.isFirst == pieces.isEmpty)
                    pieces += block.bytes
                    let withoutReturn = part.isLast && pieces.last == 0x0D ? 1 : 0
                    #expect(part.length == pieces.count - withoutReturn)
                    if part.isLast {
                        lines.append((part.line, pieces))
                        pieces = []
                    }
                } else {
                    block.forEachRecord { line, _, written in lines.append((line, Array(block.bytes[written]))) }
                }
            }
            #expect(lines.map(\.line) == Array(1...lengths.count))
            let written = Array(text.utf8).split(separator: 0x0A, omittingEmptySubsequences: false).filter {
                !$0.isEmpty
            }.map { Array($0.drop { $0 == 0xEF || $0 == 0xBB || $0 == 0xBF }) }
            // Compared as a whole, reported by length (the lines are megabytes long).
            #expect(lines.map(\.bytes) == written, "\(lines.map(\.bytes.count)) vs \(written.map(\.count))")
            #expect(blockReader.offset == text.utf8.count)
            #expect(reader.offset == text.utf8.count)
        }
    }
}
