#if canImport(Glibc)
import Glibc
#endif

/// Shows long output through `$PAGER` (default `less -R`, which keeps colours), as git and man
/// do: only when stdout is a terminal and the text is taller than the screen. An empty
/// `$PAGER`, or a pager that cannot start, means the text is written directly.
public enum Pager {
    /// Whether `lineCount` lines should go through the pager.
    public static func wanted(lineCount: Int, fd: Int32 = 1) -> Bool {
        guard Terminal.isTTY(fd), let height = Terminal.height(fd) else { return false }
        return lineCount > height - 1
    }

    /// Writes `bytes` through the pager and waits for it; false when no pager ran.
    @discardableResult
    public static func show(_ bytes: [UInt8], environment: [String: String] = Environment.current) -> Bool {
        let command = environment["PAGER"] ?? Settings.current.text(.pager) ?? "less -R"
        guard !command.trimmingSpaces().isEmpty, command != "cat" else { return false }
        var pipeEnds: [Int32] = [0, 0]
        guard pipe(&pipeEnds) == 0 else { return false }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, pipeEnds[0], 0)
        posix_spawn_file_actions_addclose(&actions, pipeEnds[0])
        posix_spawn_file_actions_addclose(&actions, pipeEnds[1])
        var environmentLines = environment.map { "\($0.key)=\($0.value)" }
        // less: quit at once if it fits after all, pass colours, keep the text on screen.
        if environment["LESS"] == nil { environmentLines.append("LESS=FRX") }
        let arguments = ["/bin/sh", "-c", command]
        var pid: pid_t = 0
        let status = withCStrings(arguments) { argv in
            withCStrings(environmentLines) { envp in
                posix_spawn(&pid, "/bin/sh", &actions, nil, argv, envp)
            }
        }
        close(pipeEnds[0])
        guard status == 0 else {
            close(pipeEnds[1])
            return false
        }
        // The reader quitting early is normal; Ctrl-C belongs to the pager while it runs.
        signal(SIGPIPE, SIG_IGN)
        signal(SIGINT, SIG_IGN)
        StandardOutput.write(bytes: bytes, fd: pipeEnds[1])
        close(pipeEnds[1])
        var result: Int32 = 0
        while waitpid(pid, &result, 0) < 0 && errno == EINTR {}
        signal(SIGINT, SIG_DFL)
        return true
    }

    private static func withCStrings<T>(_ strings: [String], _ body: ([UnsafeMutablePointer<CChar>?]) -> T) -> T {
        var pointers: [UnsafeMutablePointer<CChar>?] = strings.map { strdup($0) }
        pointers.append(nil)
        defer { for pointer in pointers { free(pointer) } }
        return body(pointers)
    }
}
