import ArgumentParser
import PasscodeKit
import Synchronization
import ToolboxKit

extension Passcode {
    struct Fetch: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "fetch",
            abstract: "Make one call and print {\"code\": ..., \"setup\": [...]} as JSON.",
            discussion: "Transient failures are retried up to --retries times.")

        @OptionGroup var credentials: CredentialOptions
        @OptionGroup var common: CommonOptions

        func run() async throws {
            let server = try common.serverURL(tool: .passcode)
            let login = try credentials.credentials(for: server)
            let (code, setup) = try await common.withClient(tool: .passcode, credential: login.bound(to: server)) { client in
                try await InternalsFetch.once(ServerInternalsSource(client: client),
                                              policy: RetryPolicy(retries: common.retries))
            }
            StandardOutput.printJSON(FetchResult(code: code, setup: setup), pretty: false)
        }
    }
}
