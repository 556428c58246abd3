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
                UTC or empty when not installed, and synced, pending or rejected. It reads back \
                with devsync import. --format json writes what list --json does.

                Examples:
                  devsync export > today.csv
                  devsync export --format json | jq '.[] | select(.syncState != "synced")'
                """)

        enum Format: String, ExpressibleByArgument, CaseIterable { case csv, json }

        @OptionGroup var store: StoreOptions
        @Option(help: ArgumentHelp("csv or json.", valueName: "format")) var format: Format = .csv

        func run() async throws {
            let devices = try store.open(for: Self.self).devices()
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
