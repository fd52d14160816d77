import ArgumentParser
import Hummingbird
import NotesService

/// `notes-service --port 8080`: the example server of AssayOpenAPI, on 127.0.0.1.
@main
struct NotesServiceCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "notes-service",
        abstract: "A swift-openapi-generator server whose requests AssayServerMiddleware checks against openapi.yaml.")

    @Option(help: "The port to listen on, on 127.0.0.1.")
    var port = 8080

    func run() async throws {
        let app = Application(
            router: try NotesService.router(), configuration: .init(address: .hostname("127.0.0.1", port: port)))
        try await app.runService()
    }
}
