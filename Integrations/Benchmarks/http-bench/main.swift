import AssayHTTP
import AssayHummingbird
import ClientsService
import Foundation
import GRDB
import Hummingbird
import Logging
import NIOEmbedded

/// The example service's create route with Foundation's `JSONDecoder` and no validation: the
/// baseline of the load benchmark (`scripts/load.sh`). Same table, same insert, same answer.
struct PlainClient: Codable, FetchableRecord, MutablePersistableRecord, ResponseEncodable {
    var id: Int64?
    var name: String
    var age: Int
    var email: String

    static let databaseTableName = "client"

    mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
}

/// Serves the example service's routes, `POST /plain/clients` (the same create route without
/// Assay) and the decoding alone of both, one client (`POST /decode/assay`, `POST /decode/plain`) and an
/// array of them (`POST /decode/assay/batch`, `POST /decode/plain/batch`), on 127.0.0.1:PORT (the first argument, 8080 by default), with its database in memory.
@main
struct HTTPBench {
    static func main() async throws {
        if CommandLine.arguments.dropFirst().first == "--decode-only" {
            try decodeOnly(count: CommandLine.arguments.dropFirst(2).first.flatMap { Int($0) } ?? 100_000)
            return
        }
        let handlerOnly = CommandLine.arguments.dropFirst().first == "--handler-only"
        let port = CommandLine.arguments.dropFirst().first.flatMap { Int($0) } ?? 8080
        let service = try ClientsService(path: nil)
        let router = service.router()
        let database = service.database
        router.post("plain/clients") { request, context -> EditedResponse<PlainClient> in
            var client = try await request.decode(as: PlainClient.self, context: context)
            client.id = nil
            let saved = try await database.write { [client] db in
                var client = client
                try client.insert(db)
                return client
            }
            return EditedResponse(status: .created, headers: [.location: "/clients/\(saved.id ?? 0)"], response: saved)
        }
        // Decoding alone, no database: Assay's validated decoding against JSONDecoder, both
        // answering the value with Hummingbird's encoder.
        router.post("decode/assay") { request, context -> Client in
            try await request.decodeValidated(as: Client.self, context: context, for: .insert)
        }
        router.post("decode/plain") { request, context -> PlainClient in
            try await request.decode(as: PlainClient.self, context: context)
        }
        // A batch import: an array of clients decoded (every element checked on the Assay side),
        // both answering with the count, so that decoding is most of the request's work.
        router.post("decode/assay/batch") { request, context -> String in
            String(try await request.decodeValidated(as: [Client].self, context: context, for: .insert).count)
        }
        router.post("decode/plain/batch") { request, context -> String in
            String(try await request.decode(as: [PlainClient].self, context: context).count)
        }
        if handlerOnly {
            try await respondOnly(
                router, count: CommandLine.arguments.dropFirst(2).first.flatMap { Int($0) } ?? 100_000)
            return
        }
        let app = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: port)))
        try await app.runService()
    }
}

/// The body of one client, as the load benchmark's single-client routes get it.
let oneClientBody = #"{"name": "  Ann Lee ", "age": 30, "email": "ann.1.2@example.com"}"#

/// A JSON array of 100 clients (names, ages and emails of different lengths, some to normalise), as
/// `load.sh`'s batch routes get it.
let batchBody: String = {
    let names = ["Ann Lee", "  Bob Stone ", "Chiara Rossi", "Dmitri Ivanov", "Eve", "Fatima Al Sayed"]
    return "["
        + (1...100).map { index in
            #"{"name": "\#(names[index % names.count])", "age": \#(18 + (index * 7) % 80), "email": " User.\#(index)@Example.com "}"#
        }.joined(separator: ", ") + "]"
}()

/// `http-bench --decode-only [N]`: the two routes' bodies decoded N times each in the process, no
/// HTTP — Assay's `RequestContent.decode` (media type, parse, decode, the create rules) against
/// `JSONDecoder().decode` from `Data` (what Hummingbird's `request.decode` runs) — for one client
/// and a batch of 100: five rounds, the two taking turns, the median and the fastest round of each.
func decodeOnly(count: Int) throws {
    func nanoseconds(_ rounds: Int, _ body: () throws -> Int) rethrows -> Double {
        var total = 0
        let start = ContinuousClock.now
        for _ in 0..<rounds { total &+= try body() }
        let elapsed = ContinuousClock.now - start
        precondition(total > 0)
        return (Double(elapsed.components.seconds) * 1e9 + Double(elapsed.components.attoseconds) / 1e9)
            / Double(rounds)
    }
    let decoder = JSONDecoder()
    for (name, body, rounds) in [("one client", oneClientBody, count), ("100 clients", batchBody, max(count / 100, 1))]
    {
        let bytes = Array(body.utf8)
        let data = Data(body.utf8)
        let isBatch = name != "one client"
        func assay() throws -> Int {
            let content = RequestContent(bytes, contentType: "application/json", acceptLanguage: nil)
            return isBatch
                ? try content.decode([Client].self, for: .insert).value.count
                : try content.decode(Client.self, for: .insert).value.age
        }
        func foundation() throws -> Int {
            isBatch
                ? try decoder.decode([PlainClient].self, from: data).count
                : try decoder.decode(PlainClient.self, from: data).age
        }
        var times: [String: [Double]] = [:]
        _ = try nanoseconds(rounds / 5, assay)
        _ = try nanoseconds(rounds / 5, foundation)
        for _ in 0..<5 {
            times["Assay RequestContent.decode(for: .insert)", default: []].append(try nanoseconds(rounds, assay))
            times["JSONDecoder, no rules", default: []].append(try nanoseconds(rounds, foundation))
        }
        for (label, values) in times.sorted(by: { $0.key < $1.key }) {
            let sorted = values.sorted()
            print("\(name), \(label): median \(Int(sorted[2])) ns, fastest \(Int(sorted[0])) ns per body")
        }
    }
}

/// `http-bench --handler-only [N]`: the decoding routes answered N times each in the process by the
/// server's own router (its middleware, the handler, the response encoded), with no socket and no
/// HTTP parsing — `POST /decode/assay` against `POST /decode/plain`, for one client and a batch of
/// 100: eleven rounds of N/4 requests each, the two taking turns; the median and fastest round of
/// each, and the median of the rounds' ratios (each ratio from two rounds side by side, so that the
/// machine's drift falls on both).
func respondOnly(_ router: Router<BasicRequestContext>, count: Int) async throws {
    let responder = router.buildResponder()
    let channel = EmbeddedChannel()
    let logger = Logger(label: "http-bench")
    func respond(_ path: String, _ body: ByteBuffer) async throws -> Int {
        let request = Request(
            head: HTTPRequest(
                method: .post, scheme: "http", authority: "127.0.0.1", path: path,
                headerFields: [.contentType: "application/json"]),
            body: RequestBody(buffer: body))
        let context = BasicRequestContext(source: .init(channel: channel, logger: logger))
        let response = try await responder.respond(to: request, context: context)
        precondition(response.status == .ok, "\(path) answered \(response.status)")
        return response.status.code
    }
    func nanoseconds(_ rounds: Int, _ path: String, _ body: ByteBuffer) async throws -> Double {
        var total = 0
        let start = ContinuousClock.now
        for _ in 0..<rounds { total &+= try await respond(path, body) }
        let elapsed = ContinuousClock.now - start
        precondition(total > 0)
        return (Double(elapsed.components.seconds) * 1e9 + Double(elapsed.components.attoseconds) / 1e9)
            / Double(rounds)
    }
    for (name, body, rounds, suffix) in [
        ("one client", oneClientBody, count, ""), ("100 clients", batchBody, max(count / 100, 4), "/batch"),
    ] {
        let buffer = ByteBuffer(string: body)
        let routes = [
            ("POST /decode/assay\(suffix) (Assay)", "/decode/assay\(suffix)"),
            ("POST /decode/plain\(suffix) (JSONDecoder, no rules)", "/decode/plain\(suffix)"),
        ]
        var times: [String: [Double]] = [:]
        for (_, path) in routes { _ = try await nanoseconds(max(rounds / 5, 1), path, buffer) }
        var ratios: [Double] = []
        for _ in 0..<11 {
            var pair: [Double] = []
            for (label, path) in routes {
                let time = try await nanoseconds(max(rounds / 4, 1), path, buffer)
                times[label, default: []].append(time)
                pair.append(time)
            }
            ratios.append(pair[0] / pair[1])
        }
        for (label, _) in routes {
            let sorted = times[label, default: []].sorted()
            print("\(name), \(label): median \(Int(sorted[5])) ns, fastest \(Int(sorted[0])) ns per request")
        }
        let ratio = (ratios.sorted()[5] * 1000).rounded() / 1000
        print("\(name): Assay's time / JSONDecoder's, the median of 11 rounds side by side: \(ratio)")
    }
}
