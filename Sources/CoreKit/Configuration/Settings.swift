/// The settings `config.yml` gives the running tool, each with where it came from: its own
/// mapping (`condtest:`) over the shared top. Keys are named as the long options. Loaded
/// once a process; each problem is one warning line with file:line, never a silent default.
public struct Settings: Sendable {
    public enum Key: String, Sendable, CaseIterable {
        case server, timeout, connectTimeout = "connect-timeout", retries, proxy, noproxy, cacert, pager
        /// blogctl: how long a cached post counts as fresh, shown without asking the server.
        case maxAge = "max-age"
        /// blogctl: how many entries the library keeps of each feed (newsboat's max-items); 0 or unset: all.
        case maxItems = "max-items"
        /// blogctl: the folder `download` writes files to.
        case downloadDir = "download-dir"
    }

    public struct Value: Sendable, Equatable {
        public let text: String
        /// `FILE:LINE`, with `(tool:)` when from the tool's mapping.
        public let origin: String
    }

    public static let tools = ["condtest", "passcode", "blogctl", "devsync", "mockd"]

    public let path: String
    public private(set) var values: [Key: Value] = [:]
    public private(set) var warnings: [String] = []

    /// The largest config.yml read.
    public static let sizeLimit = 1 << 20

    /// The file's settings for `tool`; no file is no settings. A file that fails the trust
    /// rule (`FileTrust`) is not used at all, with one warning saying why: it may name a
    /// pager to run and the server that gets the passwords.
    public init(tool: Tool, path: String, home: String? = Environment.current["HOME"]) {
        self.path = path
        let bytes: [UInt8]
        do {
            bytes = try FileTrust.read(path, limit: Self.sizeLimit, home: home)
        } catch {
            if FileTrust.exists(path) { warnings.append(error.message) }
            return
        }
        let file = ConfigFile(String(decoding: bytes, as: UTF8.self))
        for problem in file.problems { warnings.append("\(path):\(problem.line): \(problem.text)") }
        var shared: [Key: Value] = [:]
        var own: [Key: Value] = [:]
        var unknownSections = Set<String>()
        for entry in file.entries {
            let at = "\(path):\(entry.line)"
            if let section = entry.section, !Self.tools.contains(section) {
                if unknownSections.insert(section).inserted {
                    warnings.append(Self.unknown("tool", section, at: at, names: Self.tools))
                }
                continue
            }
            guard let key = Key(rawValue: entry.key) else {
                warnings.append(Self.unknown("key", entry.key, at: at, names: Key.allCases.map(\.rawValue)))
                continue
            }
            if let problem = Self.problem(key, entry.value) {
                warnings.append("\(at): \(key.rawValue): \(problem)")
                continue
            }
            if entry.section == nil {
                shared[key] = Value(text: entry.value, origin: at)
            } else if entry.section == tool.name {
                own[key] = Value(text: entry.value, origin: at + " (\(tool.name):)")
            }
        }
        values = shared.merging(own) { _, mine in mine }
    }

    /// `FILE:LINE: unknown key "timeuot"; did you mean "timeout"?`, as git says it.
    static func unknown(_ kind: String, _ name: String, at: String, names: [String]) -> String {
        let line = "\(at): unknown \(kind) \(Terminal.quote(name))"
        return CommandSuggestion.didYouMean(name, among: names).map { line + "; " + $0 } ?? line
    }

    /// The file for an environment: `$XDG_CONFIG_HOME/toolbox/config.yml`.
    public static func path(environment: [String: String] = Environment.current) -> String {
        Paths.join(Paths(environment: environment).configHome, "toolbox/config.yml")
    }

    /// The running tool's settings, read once; its warnings are said then.
    public static let current: Settings = {
        let settings = Settings(tool: Tool.running, path: path())
        for warning in settings.warnings { Tool.running.warn(warning) }
        return settings
    }()

    public func text(_ key: Key) -> String? { values[key]?.text }
    public func number(_ key: Key) -> Double? { text(key).flatMap(Double.init) }
    public func integer(_ key: Key) -> Int? { text(key).flatMap { Int($0) } }

    /// What is wrong with `value` for `key`, or nil.
    static func problem(_ key: Key, _ value: String) -> String? {
        switch key {
        case .timeout, .connectTimeout:
            guard let seconds = Double(value), seconds > 0, seconds <= 86_400 else { return "expected seconds, 0 to 86400, found \"\(value)\"" }
        case .maxAge:
            guard let seconds = Double(value), seconds >= 0, seconds <= 31_536_000 else { return "expected seconds, 0 to 31536000, found \"\(value)\"" }
        case .maxItems:
            guard let count = Int(value), count >= 0 else { return "expected a count of entries, 0 for all, found \"\(value)\"" }
        case .retries:
            guard let count = Int(value), (0...20).contains(count) else { return "expected a count, 0 to 20, found \"\(value)\"" }
        case .server:
            // A query is for blogctl's feeds alone; another tool refuses it when it reads it.
            do { _ = try ServerURL(value, allowingQuery: true) } catch { return error.message }
        case .proxy, .cacert, .downloadDir:
            if value.isEmpty { return "empty" }
        case .noproxy, .pager:
            break
        }
        return nil
    }
}
