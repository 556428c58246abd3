import ArgumentParser
import DevsyncKit
import ToolboxKit

extension Devsync {
    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "list",
            abstract: "List the devices in the local store; works offline.",
            discussion: """
                Columns: id, type, meter point, installation date, sync state (synced, pending, \
                rejected). On a terminal dates are local time; piped, lines are \
                ID<TAB>TYPE<TAB>METER POINT<TAB>INSTALLED<TAB>STATE with the type as the API \
                names it (warm_water) and dates in ISO 8601 UTC, empty when not installed.
                """)

        @OptionGroup var store: StoreOptions

        @OptionGroup var pager: PagerOption
        @OptionGroup var output: JSONFlag

        @Flag(name: .customLong("installed"), help: "Only installed devices.") var installed = false
        @Flag(name: .customLong("not-installed"), help: "Only devices not installed.") var notInstalled = false
        @Flag(name: .customLong("pending"), help: "Only devices with a change not yet through.") var pending = false

        @Option(help: ArgumentHelp("Only devices of this type: warm_water, cold_water, heating, or another the server names.", valueName: "type"))
        var type: String?

        func validate() throws {
            if installed && notInstalled { throw ValidationError("--installed and --not-installed exclude each other") }
            if let type, type.isEmpty {
                throw ValidationError("--type needs a type: warm_water, cold_water, heating, or another the server names")
            }
        }

        func run() async throws {
            let filter = DeviceFilter(installed: installed, notInstalled: notInstalled, pending: pending, type: type)
            let all = try store.open(for: Self.self).devices()
            let devices = all.filter(filter.matches)
            let mode = output.mode
            if all.isEmpty && mode != .json {
                // Before the first pull: a bare header would say nothing.
                Tool.devsync.say("no devices in the store yet: devsync pull fetches them from the server")
                return
            }
            if mode == .json { return StandardOutput.printJSON(devices.map(DeviceJSON.init)) }
            // Narrow, the meter point gives way first, then the type; the id never (issue 47): on
            // a terminal it is the shortest start that tells every device of the store apart,
            // which `show` takes back, as git shows hashes; piped, whole.
            let fits: [Table.Fit] = [.keep, .shrink(order: 1, minimum: 0), .shrink(order: 0, minimum: 0), .keep, .keep]
            let ids = mode == .table ? IDPrefix.shortened(devices.map(\.id), among: all.map(\.id)) : devices.map(\.id)
            let table = Table(columns: ["ID", "TYPE", "METER POINT", "INSTALLED", "STATE"], fits: fits, rows: zip(ids, devices).map {
                [$0, $1.typeField(mode), $1.meterPointDescription, $1.installedField(mode), $1.syncState.rawValue]
            })
            pager.print(table.render(mode))
        }
    }
}
