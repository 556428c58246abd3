import ArgumentParser
import DevsyncKit
import ToolboxKit

extension Devsync {
    struct Discard: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "discard",
            abstract: "Drop a device's local change on purpose.",
            discussion: "Asks for confirmation on a terminal; scripts pass --yes.")

        @OptionGroup var store: StoreOptions
        @Flag(name: [.short, .long], help: "Do not ask.") var yes = false
        @Argument(help: ArgumentHelp("The device id.", valueName: "id")) var id: String

        func run() async throws {
            let id = try ResourceID.validate(self.id, kind: "device id")
            let deviceStore = try store.open(for: Self.self)
            guard let device = try deviceStore.device(id) else { throw ToolError.notFound(what: "device \(id)") }
            guard device.change != nil else { throw ToolError.notFound(what: "a local change for \(id)") }
            if !yes {
                guard Terminal.isTTY(0) else { throw ToolError.usage("refusing to discard without --yes: stdin is not a terminal") }
                StandardError.writeRaw("devsync: discard the \(device.syncState.rawValue) change to \(Terminal.sanitizeField(id))? [y/N] ")
                guard let answer = readLine(), answer.lowercased().hasPrefix("y") else {
                    Tool.devsync.say("kept")
                    return
                }
            }
            try deviceStore.discard(id)
            Tool.devsync.say("discarded the change to \(id)")
        }
    }
}
