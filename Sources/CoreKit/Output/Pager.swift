#if canImport(Glibc)
import Glibc
#endif
import Synchronization

/// Shows long output through `$PAGER` (default `less -R`, which keeps colours), as git and man
/// do: only when stdout is a terminal and the text is taller than the screen. An empty
/// `$PAGER`, or a pager that cannot start, means the text is written directly.
public enum Pager {
    /// `--no-pager`, taken by `ToolMain` from any command's line, as git takes it (issue 47):
    /// one rule for every command, whether or not it has a list to page.
    static let disabledFlag = Atomic<Bool>(false)
    public static var isDisabled: Bool {
        get { disabledFlag.load(ordering: .relaxed) }
        set { disabledFlag.store(newValue, ordering: .relaxed) }
    }

    /// Whether `lineCount` lines should go through the pager.
    /// `lineCount` is counted only on a terminal: piped, a list of megabytes is not read
    /// through once more for nothing.
    public static func wanted(lineCount: @autoclosure () -> Int, fd: Int32 = 1) -> Bool {
        guard !isDisabled, Terminal.isTTY(fd), let height = Terminal.height(fd) else { return false }
        return lineCount() > height - 1
    }

    /// Writes `text` through the pager (its own bytes, no copy) and waits for it; false when
    /// no pager ran.
    @discardableResult
    public static func show(_ text: String, environment: [String: String] = Environment.current) -> Bool {
        guard let (child, input) = start(environment: environment) else { return false }
        var text = text
        _ = text.withUTF8 { LocalFile.writeAll(input, UnsafeRawBufferPointer($0)) }
        close(input)
        wait(child)
        return true
    }

    /// Starts the pager reading from a pipe: its process and the pipe's end to write; nil when
    /// no pager is wanted or it cannot start. Ctrl-C and a reader quitting early (SIGPIPE)
    /// belong to the pager until `wait`.
    static func start(environment: [String: String] = Environment.current) -> (child: ChildProcess, input: Int32)? {
        let command = environment["PAGER"] ?? Settings.current.text(.pager) ?? "less -R"
        guard !command.trimmingSpaces().isEmpty, command != "cat" else { return nil }
        var pipeEnds: [Int32] = [0, 0]
        guard pipe(&pipeEnds) == 0 else { return nil }
        var environment = environment
        // less: quit at once if it fits after all, pass colours, keep the text on screen.
        if environment["LESS"] == nil { environment["LESS"] = "FRX" }
        let child = ChildProcess.start(["/bin/sh", "-c", command], environment: environment,
                                       input: .descriptor(pipeEnds[0]), closing: [pipeEnds[0], pipeEnds[1]])
        close(pipeEnds[0])
        guard let child else {
            close(pipeEnds[1])
            return nil
        }
        _ = fcntl(pipeEnds[1], F_SETFD, FD_CLOEXEC)
        signal(SIGPIPE, SIG_IGN)
        signal(SIGINT, SIG_IGN)
        return (child, pipeEnds[1])
    }

    static func wait(_ child: ChildProcess) {
        child.wait()
        signal(SIGINT, SIG_DFL)
    }
}

/// Output that goes through the pager only once it proves taller than the screen, as git's
/// does: the first screenful is held, then the pager starts and gets it, then the rest as it
/// is written. Memory is one screen, whatever the length (a post of a gigabyte). Only for a
/// terminal; `finish` writes what is held when it all fitted.
public final class PagedOutput {
    private var held: [UInt8] = []
    private var lines = 0
    private let height: Int
    private var pager: (child: ChildProcess, input: Int32)?
    private var direct = false
    /// Called once when the reader quits the pager before the end; the process then exits 0,
    /// without laying out the rest nobody will read.
    private let readerQuit: () -> Void

    public init(readerQuit: @escaping () -> Void = {}) {
        height = Terminal.height(1) ?? 24
        self.readerQuit = readerQuit
    }

    public func write(_ bytes: [UInt8]) {
        if let pager {
            if LocalFile.writeAll(pager.input, bytes) == EPIPE {
                close(pager.input)
                Pager.wait(pager.child)
                self.pager = nil
                readerQuit()
                exit(0)
            }
            return
        }
        if direct { return StandardOutput.write(bytes: bytes) }
        held += bytes
        lines += bytes.count { $0 == 0x0A }
        guard lines > height - 1 else { return }
        if let started = Pager.start() {
            pager = started
            let first = held
            held = []
            write(first)
        } else {
            direct = true
            StandardOutput.write(bytes: held)
            held = []
        }
    }

    /// Everything is written: the held text goes out, or the pager gets its end and is waited for.
    public func finish() {
        if let pager {
            close(pager.input)
            Pager.wait(pager.child)
            self.pager = nil
        } else if !held.isEmpty {
            StandardOutput.write(bytes: held)
            held = []
        }
    }
}
