import ArgumentParser
import DevsyncKit
import ToolboxKit

extension Devsync {
    struct Pull: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "pull",
            abstract: "Refresh the local device list from the server.",
            discussion: """
                Retries 5xx answers. A local change not yet synced is never overwritten. With \
                --json, {"devices": N} on stdout.
                """)

        @OptionGroup var store: StoreOptions
        @OptionGroup var common: CommonOptions
        @OptionGroup var binding: ServerBinding

        func run() async throws {
            let deviceStore = try store.open(for: Self.self)
            try binding.bind(deviceStore, common)
            let count = try await common.withClient(tool: .devsync) { client in
                try await DevicePull.run(client: client, store: deviceStore) { Tool.devsync.warn("" + $0) }.devices
            }
            if common.json { StandardOutput.printJSON(["devices": count], pretty: false) }
            if !common.quiet { Tool.devsync.say("\(count) devices from \(try common.serverURL(tool: .devsync))") }
        }
    }
}
