import ArgumentParser
import DevsyncKit
import FoundationEssentials
import ToolboxKit

extension Devsync {
    struct Install: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "install",
            abstract: "Record that a device was installed; no network needed.",
            discussion: """
                DATE is \(DateInput.forms); a day alone is its midnight. The default \
                is now. A later change to the same device before a sync replaces this one.
                """)

        @OptionGroup var store: StoreOptions

        @Option(help: ArgumentHelp("When it was installed (default: now).", valueName: "date")) var at: String?
        @Flag(name: [.short, .long], help: "Print no confirmation.") var quiet = false
        @Argument(help: ArgumentHelp("The device id.", valueName: "id")) var id: String

        func run() async throws {
            let id = try ResourceID.validate(self.id, kind: "device id")
            let date = try at.map(DateInput.parse) ?? Date()
            try store.open(for: Self.self).record(id, installationDate: date)
            if !quiet { Tool.devsync.say("\(id) installed \(DateDisplay.human(date)); pending sync") }
        }
    }
}
