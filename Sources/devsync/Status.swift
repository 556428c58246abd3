import ArgumentParser
import DevsyncKit
import ToolboxKit

extension Devsync {
    struct Status: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "status",
            abstract: "Counts of devices, installed, pending, rejected, damaged and conflicts; the last sync; the server.",
            discussion: "Piped, one FIELD<TAB>VALUE line each. Reads only the store.")

        @OptionGroup var store: StoreOptions
        @OptionGroup var common: CommonOptions

        struct JSON: Encodable {
            let devices, installed, pending, rejected, damaged, conflicts: Int
            let lastSync: String?
            let lastPull: String?
            let server: String
            let store: String
        }

        func run() async throws {
            let deviceStore = try store.open(for: Self.self)
            let status = try StoreStatus(of: deviceStore)
            let mode = common.outputMode
            // The store's own server (the one it was pulled from); the configured one until
            // the first pull, marked so; and a configured one that differs, named beside it.
            let configured = String(try common.serverURL(tool: .devsync).requestURL("/").dropLast())
            let bound = try deviceStore.binding.server()
            let server = bound.map { $0 == configured ? $0 : "\($0) (configured: \(configured); pull and sync refuse it)" }
                ?? configured + (mode == .table ? " (not pulled yet)" : "")
            let lastSync = status.lastSync.map { DateDisplay.format($0, for: mode) }
            let lastPull = status.lastPull.map { DateDisplay.format($0, for: mode) }
            if mode == .json {
                let json = JSON(devices: status.devices, installed: status.installed, pending: status.pending,
                                rejected: status.rejected, damaged: status.damaged, conflicts: status.conflicts, lastSync: lastSync, lastPull: lastPull, server: bound ?? configured,
                                store: deviceStore.path)
                StandardOutput.printJSON(json)
                return
            }
            let fields = [("devices", String(status.devices)), ("installed", String(status.installed)),
                          ("pending", String(status.pending)), ("rejected", String(status.rejected)),
                          ("damaged", String(status.damaged)), ("conflicts", String(status.conflicts)),
                          ("last sync", lastSync ?? (mode == .table ? "never" : "")),
                          ("last pull", lastPull ?? (mode == .table ? "never" : "")),
                          ("server", server), ("store", deviceStore.path)]
            StandardOutput.print(FieldList.render(fields, mode))
        }
    }
}
