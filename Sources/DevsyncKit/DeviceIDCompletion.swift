import ToolboxKit

/// Device ids for the shell's Tab (`devsync show WWM<Tab>`): from the store the command line
/// names (`--store`), else the environment's, offline; nothing when there is no store yet,
/// which completing never creates.
public enum DeviceIDCompletion {
    public static func candidates(words: [String], prefix: String, environment: [String: String] = Environment.current) -> [String] {
        let flag = words.firstIndex(of: "--store").flatMap { words.index(after: $0) < words.endIndex ? words[words.index(after: $0)] : nil }
        let path = StoreLocation.resolve(flag: flag, environment: environment)
        guard LocalFile.isRegularFile(path), let store = try? DeviceStore(path: path), let ids = try? store.deviceIDs() else { return [] }
        return ids.filter { $0.hasPrefix(prefix) }.sorted()
    }
}
