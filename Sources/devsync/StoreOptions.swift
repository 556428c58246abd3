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

/// `--switch-server`, for the commands that talk to the server (pull, sync, ui): the store
/// belongs to the server it was first pulled from or synced to (`DeviceStore.bind`).
struct ServerBinding: ParsableArguments {
    @Flag(name: .customLong("switch-server"), help: "Move the store to this server; its pending changes are kept and sent there.")
    var switchServer = false

    /// Binds `store` to the server in force, or refuses another one; says a move once.
    func bind(_ store: DeviceStore, _ common: CommonOptions) throws {
        let server = try common.serverURL(tool: .devsync)
        if let notice = try store.binding.bind(to: String(server.requestURL("/").dropLast()), switching: switchServer) {
            Tool.devsync.say(notice)
        }
    }
}
