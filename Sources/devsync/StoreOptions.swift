import ArgumentParser
import DevsyncKit
import ToolboxKit

/// `--store PATH`, shared by every subcommand.
struct StoreOptions: ParsableArguments {
    @Option(help: ArgumentHelp(
        "The local store (default: $DEVSYNC_STORE, then $XDG_DATA_HOME/devsync/devsync.sqlite).", valueName: "path"))
    var store: String?

    /// The store, for `command` (named by its subcommand name in the history it writes).
    func open(for command: any ParsableCommand.Type) throws(ToolError) -> DeviceStore {
        try DeviceStore(path: StoreLocation.prepared(flag: store), command: command._commandName)
    }
}

/// `--json` for the commands that read only the store.
struct JSONFlag: ParsableArguments {
    @Flag(help: "Print JSON instead of a table or tab-separated lines.")
    var json = false

    var mode: OutputMode { OutputMode(json: json) }
}
