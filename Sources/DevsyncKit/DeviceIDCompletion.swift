import SQLiteKit
import ToolboxKit

/// Device ids for the shell's Tab (`devsync show WWM<Tab>`): from the store the command line
/// names (`--store`), else the environment's, offline; nothing when there is no store yet,
/// which completing never creates.
public enum DeviceIDCompletion {
    /// `before`: the words before the one completed, whose `--store` names the store.
    public static func candidates(before: [String], prefix: String, environment: [String: String] = Environment.current) -> [String] {
        let flag = ShellCompletion.flagValue("--store", in: before)
        let path = StoreLocation.resolve(flag: flag, environment: environment)
        guard LocalFile.isRegularFile(path), StoreLocation.problem(path, environment: environment) == nil else { return [] }
        // Read-only and nothing else: no schema check, no migration, no write (the shell waits).
        guard let file = try? SQLiteFile(StoreSchema.readOnlyLocation(path)) else { return [] }
        defer { file.close() }
        let ids = (try? file.transaction(.read) { db in try db.rows("SELECT id FROM device").compactMap { $0.column("id")?.string } }) ?? []
        return ShellCompletion.offer(ids, typed: prefix, before: before)
    }
}
