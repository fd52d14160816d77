import ArgumentParser
import ClientsService
import Hummingbird

/// Runs the example service: `swift run clients-service --port 8080 --database clients.sqlite`.
@main
struct ClientsServiceCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "clients-service", abstract: "Assay's example HTTP service: clients checked on every request.")

    @Option(help: "The address to listen on.") var host = "127.0.0.1"
    @Option(help: "The port to listen on.") var port = 8080
    @Option(help: "The SQLite database file (created if missing); in memory when omitted.") var database: String?

    func run() async throws {
        let service = try ClientsService(path: database)
        let app = Application(
            router: service.router(), configuration: .init(address: .hostname(host, port: port)))
        try await app.runService()
    }
}
