import ArgumentParser
import DevsyncKit
import ToolboxKit

extension Devsync {
    struct Pending: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "pending",
            abstract: "The sync screen: every device whose change has not reached the server.",
            discussion: """
                Piped: ID<TAB>STATE<TAB>INSTALLED<TAB>ATTEMPTS<TAB>LAST ERROR, in the order \
                the changes were recorded. Rejected changes stay here until changed again or discarded.
                """)

        @OptionGroup var store: StoreOptions

        @OptionGroup var pager: PagerOption
        @OptionGroup var output: JSONFlag

        func run() async throws {
            let devices = try store.open(for: Self.self).pending()
            let mode = output.mode
            if mode == .json { return StandardOutput.printJSON(devices.map(DeviceJSON.init)) }
            // SERVER CHANGED TO: set when a pull found the server's value changed meanwhile.
            // Narrow, SERVER CHANGED TO gives way first, then the last error, the attempts; the id
            // never, so that it can be typed back (issue 47).
            let fits: [Table.Fit] = [.keep, .keep, .keep, .shrink(order: 2, minimum: 0),
                                     .shrink(order: 1, minimum: 0), .shrink(order: 0, minimum: 0)]
            let table = Table(columns: ["ID", "STATE", "INSTALLED", "ATTEMPTS", "LAST ERROR", "SERVER CHANGED TO"], fits: fits, rows: devices.map {
                [$0.id, $0.syncState.rawValue, $0.installedField(mode), String($0.change?.attempts ?? 0),
                 $0.change?.lastError ?? "", $0.change?.serverChange.map { change in
                     change.installationDate.map { DateDisplay.format($0, for: mode) } ?? "not installed" } ?? ""]
            })
            pager.print(table.render(mode))
        }
    }
}
