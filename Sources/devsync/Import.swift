import ArgumentParser
import DevsyncKit
import FoundationEssentials
import ToolboxKit

extension Devsync {
    struct Import: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "import",
            abstract: "Record many installations at once from a CSV file; all or nothing.",
            discussion: """
                The file (- is stdin) has a header naming the columns id and installationDate; \
                other columns, such as those devsync export writes, are ignored. A date is as \
                install --at takes it; an empty one records "not installed". \
                Every row is checked first: one line per bad row (line, column, reason: unknown \
                device, bad date, duplicate id) and nothing is recorded (exit 65); otherwise \
                every row that changes a device is recorded in one transaction, and a row giving \
                a device the date it has here already records nothing.

                Examples:
                  devsync import block-7.csv
                  devsync export | devsync import --dry-run -
                """)

        @OptionGroup var store: StoreOptions

        @Flag(name: .customLong("dry-run"), help: "Check the file and print what would be recorded; record nothing.")
        var dryRun = false
        @Flag(name: [.short, .long], help: "Print no confirmation.") var quiet = false
        @Argument(help: ArgumentHelp("The CSV file; - is stdin.", valueName: "file"), completion: .file(extensions: ["csv"])) var file: String

        func run() async throws {
            let name = file == "-" ? "stdin" : file
            let bytes = try LocalFile.read(file, limit: 64 << 20)
            guard let text = String(validating: bytes, as: UTF8.self) else { throw ToolError.badData("\(name): not valid UTF-8") }
            let deviceStore = try store.open(for: Self.self)
            let rows: [DeviceImport.Row]
            switch DeviceImport.check(text, knownIDs: try deviceStore.deviceIDs()) {
            case .success(let checked): rows = checked
            case .failure(let problems):
                for problem in problems.all { Tool.devsync.say("\(name): \(problem)") }
                throw ToolError.badData("\(name): \(problems.all.count) bad row\(problems.all.count == 1 ? "" : "s"); nothing was recorded")
            }
            if dryRun {
                // What the device has here now: a row that gives it the same is no change.
                let now = Dictionary(try deviceStore.devices().map { (Array($0.id.utf8), $0.installationDate.map(ISO8601.format)) },
                                     uniquingKeysWith: { first, _ in first })
                let changes = rows.filter { now[Array($0.id.utf8)] != .some($0.installationDate.map(ISO8601.format)) }
                let mode = OutputMode(json: false)
                StandardOutput.print(Table(columns: ["ID", "INSTALLED"], rows: changes.map {
                    [$0.id, $0.installationDate.map { DateDisplay.format($0, for: mode) } ?? (mode == .table ? "-" : "")]
                }).render(mode))
                if !quiet { Tool.devsync.say("dry run: \(changes.count) change\(changes.count == 1 ? "" : "s") would be recorded"
                    + (rows.count > changes.count ? " (\(rows.count - changes.count) unchanged)" : "") + "; nothing was") }
                return
            }
            let recorded = try deviceStore.recordAll(rows.map { ($0.id, $0.installationDate) }, skippingUnchanged: true)
            if !quiet { Tool.devsync.say(Self.counts(recorded, of: rows.count) + (recorded > 0 ? " recorded; pending sync" : "")) }
        }

        /// `2 changes, 86 unchanged`.
        static func counts(_ changes: Int, of rows: Int) -> String {
            "\(changes) change\(changes == 1 ? "" : "s")" + (rows > changes ? ", \(rows - changes) unchanged" : "")
        }
    }
}
