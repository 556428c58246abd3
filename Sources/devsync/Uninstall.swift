import ArgumentParser
import DevsyncKit
import FoundationEssentials
import ToolboxKit

extension Devsync {
    struct Uninstall: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "uninstall",
            abstract: "Record that a device is not installed (clears its date); no network needed.")

        @OptionGroup var store: StoreOptions
        @Flag(name: [.short, .long], help: "Print no confirmation.") var quiet = false
        @Argument(help: ArgumentHelp("The device id.", valueName: "id")) var id: String

        func run() async throws {
            let id = try ResourceID.validate(self.id, kind: "device id")
            try store.open(for: Self.self).record(id, installationDate: nil)
            if !quiet { Tool.devsync.say("\(id) not installed; pending sync") }
        }
    }
}
