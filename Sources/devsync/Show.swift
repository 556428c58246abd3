import ArgumentParser
import DevsyncKit
import ToolboxKit

extension Devsync {
    struct Show: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "show",
            abstract: "Show one device: its date, sync state, the pending change, attempts and last error.",
            discussion: "Piped, one FIELD<TAB>VALUE line per field.")

        @OptionGroup var store: StoreOptions
        @OptionGroup var output: JSONFlag

        @Argument(help: ArgumentHelp("The device id.", valueName: "id"), completion: .custom { words, index, prefix in DeviceIDCompletion.candidates(before: Array(words.prefix(index)), prefix: prefix) }) var id: String

        func run() async throws {
            let id = try ResourceID.validate(self.id, kind: "device id")
            let deviceStore = try store.open(for: Self.self)
            // The start of an id, as git takes a short hash, when no device has the id itself.
            guard let device = try deviceStore.device(id)
                    ?? deviceStore.device(IDPrefix.resolve(id, among: deviceStore.devices().map(\.id), kind: "device", listing: "devsync list"))
            else { throw ToolError.notFound(what: "device \(id)") }
            let mode = output.mode
            if mode == .json {
                StandardOutput.printJSON(DeviceJSON(device))
                return
            }
            var fields = [("id", device.id), ("type", device.typeField(mode)), ("meter point", device.meterPointDescription),
                          ("installed", device.installedField(mode)), ("state", device.syncState.rawValue),
                          ("server has", device.dateField(device.serverDate, mode))]
            if let change = device.change {
                fields += [("recorded", DateDisplay.format(change.recordedAt, for: mode)), ("attempts", String(change.attempts)),
                           ("last error", change.lastError ?? "")]
                if let serverChange = change.serverChange {
                    fields.append(("server changed to", serverChange.installationDate.map { DateDisplay.format($0, for: mode) }
                                   ?? "not installed"))
                }
            }
            StandardOutput.print(FieldList.render(fields, mode))
        }
    }
}
