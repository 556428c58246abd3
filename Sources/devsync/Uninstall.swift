import ArgumentParser
import DevsyncKit
import ToolboxKit

extension Devsync {
    struct Uninstall: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "uninstall",
            abstract: "Record that devices are not installed (clears their date); no network needed.",
            discussion: "Several ids are recorded in one transaction: all or none.")

        @OptionGroup var store: StoreOptions
        @Flag(name: [.short, .long], help: "Print no confirmation.") var quiet = false
        @Argument(help: ArgumentHelp("The device ids.", valueName: "id"), completion: .custom { words, index, prefix in DeviceIDCompletion.candidates(before: Array(words.prefix(index)), prefix: prefix) }) var ids: [String]

        func validate() throws {
            guard !ids.isEmpty else { throw ValidationError("give at least one device id") }
        }

        func run() async throws {
            try RecordIDs.record(ids, installationDate: nil, store: store.open(for: Self.self), quiet: quiet)
        }
    }
}
