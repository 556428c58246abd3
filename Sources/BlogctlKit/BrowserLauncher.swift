#if canImport(Glibc)
import Glibc
#endif
import ToolboxKit

/// Opens a URL in the reader's browser: the first command of `$BROWSER` (a colon-separated
/// list, as man(1) and xdg-utils read it) that exists, else `xdg-open`. The URL is one
/// argument, never a shell word; only http and https URLs are opened, since a hostile post
/// could otherwise point a desktop's opener at a local file or a custom handler.
public enum BrowserLauncher {
    /// The commands to try, in order, each as words (`%s` in a `$BROWSER` entry stands for the URL).
    public static func candidates(environment: [String: String]) -> [[String]] {
        var commands: [[String]] = []
        if let browser = environment["BROWSER"], !browser.isEmpty {
            for entry in browser.split(separator: ":") where !entry.isEmpty {
                commands.append(entry.split(separator: " ").map(String.init))
            }
        }
        commands.append(["xdg-open"])
        return commands
    }

    public static func isOpenable(_ url: String) -> Bool {
        let lower = url.lowercased()
        return (lower.hasPrefix("http://") || lower.hasPrefix("https://")) && !url.unicodeScalars.contains { $0.value < 0x21 || $0.value == 0x7F }
    }

    /// The full path of `command` on `PATH`, or nil.
    public static func find(_ command: String, path: String) -> String? {
        if command.contains("/") { return access(command, X_OK) == 0 ? command : nil }
        for folder in path.split(separator: ":") where !folder.isEmpty {
            let candidate = folder + "/" + command
            if access(candidate, X_OK) == 0 { return candidate }
        }
        return nil
    }

    /// Starts the first browser found with `url` and waits for it; throws when none exists,
    /// when the URL is not http(s), or when the browser fails. `detached` gives it /dev/null
    /// for its input and output (a full screen owns the terminal meanwhile).
    public static func open(_ url: String, environment: [String: String] = Environment.current,
                            detached: Bool = false) throws(ToolError) {
        guard isOpenable(url) else {
            throw .badData("not opening \(Terminal.quote(url)): only http and https links are opened")
        }
        let path = environment["PATH"] ?? "/usr/bin:/bin"
        for words in candidates(environment: environment) {
            guard let first = words.first, let program = find(first, path: path) else { continue }
            var arguments = words.map { $0 == "%s" ? url : $0 }
            if !words.contains("%s") { arguments.append(url) }
            arguments[0] = program
            let stream: ChildProcess.Stream = detached ? .null : .inherit
            guard let child = ChildProcess.start(arguments, input: stream, output: stream, errors: stream) else { continue }
            switch child.wait() {
            case .exited(0): break
            case .exited(let code): throw .io(path: program, reason: "exited with status \(code) for \(Terminal.quote(url))")
            case .signalled(let signal): throw .io(path: program, reason: "killed by signal \(signal) for \(Terminal.quote(url))")
            }
            return
        }
        throw .missing("no browser to open \(Terminal.quote(url)): set BROWSER, or install xdg-open (xdg-utils)")
    }
}
