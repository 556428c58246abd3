import ArgumentParser
import MockdKit
import ToolboxKit

struct Mockd: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "mockd",
        abstract: "Serve the conditions, passcode, blog and devices APIs locally, with their delays and faults.",
        discussion: """
            The first line on stdout is always "mockd: listening on http://HOST:PORT". \
            One log line per request goes to stderr unless --quiet. Durations are milliseconds \
            or carry a unit (ms, s, m). SIGINT or SIGTERM shuts the server down gracefully.

            Examples:
              mockd
              mockd --port 0 --quiet
              mockd --latency 50-150 --failure-rate 0.1 --seed 7
              mockd --posts 10000 --massive-size 0
            """,
        version: ToolboxVersion.line(for: "mockd"))

    @Option(help: "Address to listen on.")
    var host = "127.0.0.1"

    @Option(help: "Port to listen on; 0 picks a free port.")
    var port = 8106

    @Option(help: ArgumentHelp("Folder with conditions/, blog/ and devices/ (default: $MOCKD_DATA, then ./data, then the installed copy).",
                               valueName: "dir"), completion: .directory)
    var data: String?

    @Option(help: ArgumentHelp("Delay of every API request, overriding each API's default (e.g. 0, 50-150, 1s-3s).",
                               valueName: "min[-max]"))
    var latency: String?

    @Option(name: .customLong("failure-rate"),
            help: ArgumentHelp("Share of API requests that answer 500, 0 to 1, overriding each API's default.", valueName: "p"))
    var failureRate: Double?

    @Option(help: "Seed of the fault generator: the same seed gives the same faults.")
    var seed: UInt64 = 1

    @Flag(name: [.short, .long], help: "Do not log requests.")
    var quiet = false

    @OptionGroup var load: LoadOptions

    @OptionGroup var passcode: PasscodeOptions

    @Option(name: .customLong("tls-cert"), help: ArgumentHelp("Serve HTTPS with this PEM certificate (chain); needs --tls-key.", valueName: "file"))
    var tlsCert: String?

    @Option(name: .customLong("tls-key"), help: ArgumentHelp("The PEM private key of --tls-cert.", valueName: "file"))
    var tlsKey: String?

    func validate() throws {
        if let latency, LatencyRange(parsing: latency) == nil {
            throw ValidationError("invalid --latency \"\(latency)\": use MIN[-MAX], e.g. 0, 150, 50-150, 1s-3s")
        }
        if let failureRate, !(0...1).contains(failureRate) {
            throw ValidationError("--failure-rate must be between 0 and 1")
        }
        guard (0...65535).contains(port) else { throw ValidationError("--port must be between 0 and 65535") }
        guard (tlsCert == nil) == (tlsKey == nil) else { throw ValidationError("--tls-cert and --tls-key go together") }
    }

    func run() async throws {
        var configuration = MockdConfiguration()
        configuration.host = host
        configuration.port = port
        configuration.dataDirectory = try DataLocation.resolve(flag: data)
        configuration.latency = latency.flatMap(LatencyRange.init(parsing:))
        configuration.failureRate = failureRate
        configuration.seed = seed
        configuration.quiet = quiet
        load.apply(to: &configuration)
        configuration.passcodeUser = passcode.passcodeUser
        configuration.passcodePassword = passcode.passcodePassword
        configuration.passcodeCodes = passcode.passcodeCodes.flatMap(PasscodeAPI.parseCodes) ?? []
        configuration.tlsCertificate = tlsCert
        configuration.tlsKey = tlsKey
        let server = MockServer(configuration: configuration, apis: try MockAPIs.load(configuration))
        do {
            try await server.run()
        } catch let error as ToolError {
            throw error
        } catch {
            throw ToolError.io(path: "\(host):\(port)", reason: "cannot serve: \(Terminal.sanitizeField(String(describing: error)))")
        }
    }
}

/// mockd, as the toolbox binary runs it when it is called by that name.
public func mockdMain(arguments: [String]) -> Never { ToolMain.main(Mockd.self, arguments: arguments) }
