import ArgumentParser
import ToolboxKit

struct Devsync: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: Tool.devsync.name,
        abstract: "Record meter installation dates offline and sync them to the server later.",
        discussion: """
            Changes are kept in a local SQLite store until the server confirms them: no network \
            is needed to record one, and no crash or failed request loses one.

            Examples:
              devsync pull
              devsync list --not-installed --type heating
              devsync install WWM-0001-12 --at '2024-03-04 09:15'
              devsync sync --wait
            """,
        version: ToolboxVersion.line(for: "devsync"),
        subcommands: [Pull.self, List.self, Show.self, Install.self, Uninstall.self, Pending.self,
                      Sync.self, Status.self, Discard.self, Import.self, Export.self, Log.self, UI.self, ConfigCommand.self])
}

/// devsync, as the toolbox binary runs it when it is called by that name.
public func devsyncMain(arguments: [String]) -> Never { ToolMain.main(Devsync.self, arguments: arguments) }
