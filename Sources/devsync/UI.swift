import ArgumentParser
import DevsyncKit
import ToolboxKit

extension Devsync {
    struct UI: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "ui",
            abstract: "The installation app on a full screen: devices, a device's detail, sync.",
            discussion: """
                Devices lists every device in the store: a mark (• pending, ! conflict, ✗ \
                rejected), id, installation date in local time or "not installed", type and \
                meter point. / filters, t cycles the type, Enter opens a device, Tab switches \
                to Sync. The store is read at once and the device list pulled in the \
                background (R pulls again): every screen works without a server.

                A device's screen shows both dates, the pending change and its history. i sets \
                the installation date (prefilled with now; every form install --at takes), c \
                records "not installed", d discards the pending change after asking; on a \
                conflict, m keeps your date and t takes the server's. Each is in the store \
                before the screen shows it.

                Sync lists the pending changes with their state; Enter on the Sync button, or \
                S anywhere, sends them as devsync sync does (--jobs at once, --retries each, \
                conflicts left for you), each change's state shown live. Esc stops after the \
                requests in flight; what is not through stays pending. ? shows every key; q \
                quits. Needs a terminal (exit 64 otherwise); Ctrl-C exits 130.

                Examples:
                  devsync ui
                  DEVSYNC_STORE=van.sqlite devsync ui --jobs 8
                """)

        @OptionGroup var store: StoreOptions
        @OptionGroup var common: CommonOptions
        @OptionGroup var binding: ServerBinding

        @Option(help: ArgumentHelp("Changes in flight at once when syncing.", valueName: "n")) var jobs = 4

        func validate() throws {
            guard (1...64).contains(jobs) else { throw ValidationError("--jobs must be between 1 and 64") }
        }

        func run() async throws {
            let deviceStore = try store.open(for: Self.self)
            try binding.bind(deviceStore, common)
            let status = try await common.withClient(tool: .devsync, waitSpinner: false) { client in
                try await DeviceBrowser.run(DeviceBrowserWork(store: deviceStore, client: client, jobs: jobs, retries: common.retries))
            }
            if status != 0 { throw ExitCode(status) }
        }
    }
}
