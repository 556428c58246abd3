import CoreKit
import Foundation
import TestSupport

/// The real binary in a real terminal: tmux runs it, send-keys types, capture-pane reads.
final class TmuxSession {
    let name: String
    let socket: String
    /// Held so that the folder with the socket outlives the session (Swift may end a local's
    /// life at its last use, and a server whose socket is gone cannot be told to stop).
    private let sandbox: Sandbox
    /// The server's pid, to stop it even if its socket is gone.
    private var serverPID: pid_t = 0

    init(command: String, arguments: [String] = [], sandbox: Sandbox, environment: [String: String],
         columns: Int = 80, rows: Int = 24) throws {
        name = "tool-\(getpid())-\(Int.random(in: 0..<1_000_000))"
        socket = sandbox.root + "/tmux.sock"
        let exports = environment.merging(sandbox.environment) { mine, _ in mine }
            .map { "\($0.key)='\($0.value.replacingOccurrences(of: "'", with: "'\\''"))'" }.joined(separator: " ")
        // The test runner's own NO_COLOR is not the terminal's: a test that wants it says so.
        // After the program ends, print its status and the tty's modes; the pane stays
        // (remain-on-exit) to be looked at until the session is killed.
        let words = ([command] + arguments).map { "'\($0.replacingOccurrences(of: "'", with: "'\\''"))'" }.joined(separator: " ")
        let script = "env -u NO_COLOR \(exports) \(words); echo EXITED $?; stty -a | tr ' ' '\\n' > '\(sandbox.root)/stty.txt'"
        self.sandbox = sandbox
        self.sandboxRoot = sandbox.root
        try tmux(["start-server", ";", "set-option", "-g", "remain-on-exit", "on", ";",
                  "new-session", "-d", "-s", name, "-x", String(columns), "-y", String(rows), script])
        serverPID = pid_t(try tmux(["display-message", "-p", "#{pid}"]).trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
    }

    private let sandboxRoot: String

    /// Runs a tmux client through the toolbox's one spawn helper. Not Foundation's Process: the
    /// tmux server that `new-session` forks inherits what Process watches for the child's exit,
    /// so Process would wait for the server too. Output goes to a file for the same reason.
    @discardableResult
    func tmux(_ arguments: [String]) throws -> String {
        let outPath = sandboxRoot + "/.tmux-out-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: outPath) }
        // -f /dev/null: the user's ~/.tmux.conf has no say in what the test sees.
        let ending = ChildProcess.run(["/usr/bin/tmux", "-f", "/dev/null", "-S", socket] + arguments, input: .null,
                                      output: arguments.contains("new-session") ? .null : .file(outPath), errors: .null)
        guard let ending else { throw HarnessError("cannot start tmux") }
        guard ending.succeeded else { throw HarnessError("tmux \(arguments.first ?? "") failed (\(ending))") }
        let data = FileManager.default.contents(atPath: outPath) ?? Data()
        return String(decoding: data, as: UTF8.self)
    }

    func send(_ keys: String...) throws { try tmux(["send-keys", "-t", name] + keys) }

    /// Resizes the window, as a person dragging the terminal's corner: the program gets SIGWINCH.
    func resize(columns: Int, rows: Int) throws {
        try tmux(["resize-window", "-t", name, "-x", String(columns), "-y", String(rows)])
    }

    /// The pid of the program the pane's shell started, by its name.
    func programPID(named name: String) throws -> pid_t? {
        let shell = try tmux(["display-message", "-p", "-t", self.name, "#{pane_pid}"]).trimmingCharacters(in: .whitespacesAndNewlines)
        let children = (try? String(contentsOfFile: "/proc/\(shell)/task/\(shell)/children", encoding: .utf8)) ?? ""
        return children.split(separator: " ").compactMap { pid_t($0) }.first { child in
            ((try? String(contentsOfFile: "/proc/\(child)/comm", encoding: .utf8)) ?? "").hasPrefix(name)
        }
    }

    /// The pane with its attributes as escape sequences (capture-pane -e): what is bold,
    /// reversed or coloured.
    func captureWithAttributes() throws -> String { try tmux(["capture-pane", "-p", "-e", "-t", name]) }
    func sendLiteral(_ text: String) throws { try tmux(["send-keys", "-t", name, "-l", text]) }

    /// Captures the pane until `condition` holds. The screen is polled because tmux has no
    /// way to say "the pane changed"; the limit only guards against a hang.
    func waitForScreen(limit: TimeInterval = 30, _ condition: (String) -> Bool) throws -> String {
        let deadline = Date().addingTimeInterval(limit)
        var screen = ""
        var previous = ""
        while Date() < deadline {
            screen = try tmux(["capture-pane", "-p", "-t", name])
            // Two identical captures in a row: not a frame caught half drawn.
            if screen == previous && condition(screen) { return screen }
            previous = screen
            usleep(20_000)
        }
        throw HarnessError("the screen never matched; last screen:\n\(screen)")
    }

    /// The terminal's settings after the program ended (`stty -a`), one word a line.
    func terminalModes() throws -> [String] {
        _ = try waitForScreen { _ in FileManager.default.fileExists(atPath: sandboxRoot + "/stty.txt") }
        return ((try? String(contentsOfFile: sandboxRoot + "/stty.txt", encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
    }

    /// Stops the server. kill-server makes it send itself SIGTERM, which it inherited blocked
    /// from the test process's threads; so the server is also sent SIGKILL, if it is still ours.
    func kill() {
        _ = try? tmux(["kill-server"])
        guard serverPID > 0,
              let command = try? String(contentsOfFile: "/proc/\(serverPID)/cmdline", encoding: .utf8),
              command.contains(socket) else { return }
        Glibc.kill(serverPID, SIGKILL)
        serverPID = 0
    }

    /// The session ends with its owner, whatever the test did.
    deinit { kill() }
}
