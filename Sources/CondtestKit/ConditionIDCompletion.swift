import ToolboxKit

/// Condition ids for the shell's Tab (`condtest show <Tab>`): `condtest list` keeps the ids
/// it printed in `$XDG_CACHE_HOME/condtest/ids` (one a line, mode 0600), and completing reads
/// them, offline. Only a copy: a missing or unreadable file completes nothing.
public enum ConditionIDCompletion {
    public static func path(environment: [String: String] = Environment.current) -> String {
        Paths(environment: environment).cache(.condtest) + "/ids"
    }

    /// Keeps the ids of a listing; failing to is no error (it is only for completion).
    public static func save(_ summaries: [ConditionSummary], environment: [String: String] = Environment.current) {
        let path = path(environment: environment)
        // An id is opaque and may hold anything but a newline would break the file (by bytes:
        // "\r\n" is one Character, which neither "\n" nor "\r" matches).
        let lines = summaries.map(\.id).filter { !$0.utf8.contains(0x0A) && !$0.utf8.contains(0x0D) }.joined(separator: "\n") + "\n"
        do {
            try LocalFile.privateDirectory(String(path.dropLast("/ids".count)))
            try LocalFile.writeAtomically(path, Array(lines.utf8), mode: 0o600)
        } catch {}
    }

    /// The saved ids, offered for the word typed so far (`ShellCompletion`).
    public static func candidates(before: [String] = [], prefix: String, environment: [String: String] = Environment.current) -> [String] {
        guard let bytes = try? LocalFile.read(path(environment: environment), limit: 16 << 20, regularOnly: true) else { return [] }
        let ids = bytes.split(separator: 0x0A).map { String(decoding: $0, as: UTF8.self) }
        return ShellCompletion.offer(ids, typed: prefix, before: before)
    }
}
