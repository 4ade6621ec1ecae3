import ArgumentParser
import DigitalInk
import Foundation
import Hummingbird
import InkServer

/// `inkrec-serve`: the HTTP API and the page to write on (see Server/README.md).
@main
struct InkRecServe: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "inkrec-serve",
        abstract: "Serve DigitalInk over HTTP: POST /v1/recognize, GET /v1/models, GET /healthz, and a page to write on at /.")

    @Option(help: "Address to listen on.") var host = "127.0.0.1"
    @Option(help: "Port to listen on.") var port = 8080
    @Option(name: .customLong("language"), help: "A model to install and load at start (repeatable; default en-US and the shapes model).")
    var languages: [String] = []
    @Option(help: "Directory holding the model storage (default: the platform cache).") var storage: String?
    @Option(help: "The largest request body in bytes.") var maxBodyBytes = ServerOptions().maxBodyBytes

    func run() async throws {
        var options = ServerOptions()
        options.host = host
        options.port = port
        if !languages.isEmpty { options.languages = languages }
        if let storage { options.storage = URL(fileURLWithPath: storage) }
        options.maxBodyBytes = maxBodyBytes
        let app = try await InkServer.application(options)
        FileHandle.standardError.write(Data("inkrec-serve: listening on http://\(host):\(port)/\n".utf8))
        try await app.runService()
    }
}
