import ArgumentParser
import DevsyncKit
import ToolboxKit

extension Devsync {
    struct Export: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "export",
            abstract: "Every device with its local state and value, as CSV or JSON.",
            discussion: """
                CSV (the default) has the header id,installationDate,state,type,meterPointDescription: \
                the date the device has here (a pending change's, else the server's), ISO 8601 \
                UTC or empty when not installed, and synced, pending, rejected or damaged. It reads \
                back with devsync import. A change whose stored date cannot be read is written \
                as damaged, with a warning, and import refuses that row: never a blank, which \
                would mean "not installed". --format json writes what list --json does.

                Examples:
                  devsync export > today.csv
                  devsync export --format json | jq '.[] | select(.syncState != "synced")'
                """)

        enum Format: String, ExpressibleByArgument, CaseIterable { case csv, json }

        @OptionGroup var store: StoreOptions
        @Option(help: ArgumentHelp("csv or json.", valueName: "format")) var format: Format = .csv

        func run() async throws {
            let devices = try store.open(for: Self.self).devices()
            for device in devices where device.isDamaged {
                Tool.devsync.warn("\(Terminal.quote(device.id)): the stored date is damaged; exported as \"damaged\", which import refuses")
            }
            switch format {
            case .json:
                StandardOutput.printJSON(devices.map(DeviceJSON.init))
            case .csv:
                var output = StandardOutput()
                let forTerminal = Terminal.isTTY(Terminal.standardOutput)
                output.writeLine(CSV.format(DeviceExport.header))
                for device in devices { output.writeLine(CSV.format(DeviceExport.fields(device, forTerminal: forTerminal))) }
            }
        }
    }
}
