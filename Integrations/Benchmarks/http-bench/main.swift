import AssayHummingbird
import ClientsService
import Foundation
import GRDB
import Hummingbird

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
/// Assay) and the decoding alone of both (`POST /decode/assay`, `POST /decode/plain`), on 127.0.0.1:PORT (the first argument, 8080 by default), with its database in memory.
@main
struct HTTPBench {
    static func main() async throws {
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
        let app = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: port)))
        try await app.runService()
    }
}
