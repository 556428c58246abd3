import ArgumentParser
import MockdKit
import ToolboxKit

@main
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
        version: ToolboxVersion.current)

    @Option(help: "Address to listen on.")
    var host = "127.0.0.1"

    @Option(help: "Port to listen on; 0 picks a free port.")
    var port = 8106

    @Option(help: ArgumentHelp("Folder with conditions/, blog/ and devices/.", valueName: "dir"))
    var data = "data"

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

    @Option(help: ArgumentHelp("Generate this many devices beyond data/devices, for load tests.", valueName: "n"))
    var devices = 0

    @Option(name: .customLong("devices-drift"), help: ArgumentHelp(
        "Before each GET /devices, change this share of installation dates, as another client would (0 to 1, seeded).",
        valueName: "p"))
    var devicesDrift = 0.0

    @Option(help: ArgumentHelp("Generate this many conditions beyond data/conditions (seeded, every operator, 1-3 arguments), for load tests.", valueName: "n"))
    var conditions = 0

    @Option(help: ArgumentHelp("Generate this many blog posts beyond data/blog, for load tests.", valueName: "n"))
    var posts = 0

    @Option(name: .customLong("post-size"),
            help: ArgumentHelp("Bytes of each generated post's body (seeded prose), for search and cache loads.", valueName: "bytes"))
    var postSize = 0

    @Option(name: .customLong("massive-size"),
            help: ArgumentHelp("Bytes of the massive blog post's generated HTML; 0 leaves it out.", valueName: "bytes"))
    var massiveSize = 8_000_000

    @Option(name: .customLong("massive-rate"),
            help: ArgumentHelp("Bytes per second at which the massive post is sent.", valueName: "bytes"))
    var massiveRate = 2_000_000

    @Option(name: .customLong("passcode-user"), help: ArgumentHelp("The passcode API's user.", valueName: "name"))
    var passcodeUser = "Runloop"

    @Option(name: .customLong("passcode-password"), help: ArgumentHelp("The passcode API's password.", valueName: "password"))
    var passcodePassword = "Run!@0p"

    @Option(name: .customLong("passcode-codes"),
            help: ArgumentHelp("Comma-separated 4-digit codes the passcode API chooses from (default: any).", valueName: "list"))
    var passcodeCodes: String?

    @Option(name: .customLong("tls-cert"), help: ArgumentHelp("Serve HTTPS with this PEM certificate (chain); needs --tls-key.", valueName: "file"))
    var tlsCert: String?

    @Option(name: .customLong("tls-key"), help: ArgumentHelp("The PEM private key of --tls-cert.", valueName: "file"))
    var tlsKey: String?

    static func main() { ToolMain.main(self) }

    func validate() throws {
        if let latency, LatencyRange(parsing: latency) == nil {
            throw ValidationError("invalid --latency \"\(latency)\": use MIN[-MAX], e.g. 0, 150, 50-150, 1s-3s")
        }
        if let failureRate, !(0...1).contains(failureRate) {
            throw ValidationError("--failure-rate must be between 0 and 1")
        }
        guard (0...65535).contains(port) else { throw ValidationError("--port must be between 0 and 65535") }
        guard (tlsCert == nil) == (tlsKey == nil) else { throw ValidationError("--tls-cert and --tls-key go together") }
        guard (0...1_000_000).contains(posts) else { throw ValidationError("--posts must be between 0 and 1000000") }
        guard (0...10_000_000).contains(postSize) else { throw ValidationError("--post-size must be between 0 and 10000000") }
        guard (0...200_000_000).contains(massiveSize) else { throw ValidationError("--massive-size must be between 0 and 200000000") }
        guard massiveRate >= 1 else { throw ValidationError("--massive-rate must be at least 1") }
        guard (0...1_000_000).contains(devices) else { throw ValidationError("--devices must be between 0 and 1000000") }
        guard (0...1).contains(devicesDrift) else { throw ValidationError("--devices-drift must be between 0 and 1") }
        guard (0...1_000_000).contains(conditions) else { throw ValidationError("--conditions must be between 0 and 1000000") }
        if let passcodeCodes, PasscodeAPI.parseCodes(passcodeCodes) == nil {
            throw ValidationError("invalid --passcode-codes \"\(passcodeCodes)\": use 4-digit codes separated by commas")
        }
    }

    func run() async throws {
        var configuration = MockdConfiguration()
        configuration.host = host
        configuration.port = port
        configuration.dataDirectory = data
        configuration.latency = latency.flatMap(LatencyRange.init(parsing:))
        configuration.failureRate = failureRate
        configuration.seed = seed
        configuration.quiet = quiet
        configuration.generatedDevices = devices
        configuration.generatedConditions = conditions
        configuration.devicesDrift = devicesDrift
        configuration.generatedPosts = posts
        configuration.generatedPostSize = postSize
        configuration.massiveSize = massiveSize
        configuration.massiveRate = massiveRate
        configuration.passcodeUser = passcodeUser
        configuration.passcodePassword = passcodePassword
        configuration.passcodeCodes = passcodeCodes.flatMap(PasscodeAPI.parseCodes) ?? []
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
