#if canImport(Glibc)
import Glibc
#endif
import Synchronization
import ToolboxKit

/// The terminal in raw mode on the alternate screen, with the cursor hidden and mouse
/// reporting on, and the one way back: `restore()` undoes all of it, at most once, from
/// quit, error or signal alike.
public final class TerminalMode: Sendable {
    private let saved = Mutex<termios?>(nil)

    public init() {}

    /// Enters raw mode; throws when stdin is not a terminal.
    public func enter() throws(ToolError) {
        var original = termios()
        guard tcgetattr(0, &original) == 0 else { throw .usage("stdin is not a terminal (use --script)") }
        var raw = original
        raw.c_iflag &= ~tcflag_t(IXON | ICRNL | BRKINT | INPCK | ISTRIP)
        raw.c_lflag &= ~tcflag_t(ECHO | ICANON | ISIG | IEXTEN)
        raw.c_cflag |= tcflag_t(CS8)
        // Blocking reads of at least one byte: no polling while waiting for keys.
        withUnsafeMutableBytes(of: &raw.c_cc) { cc in
            cc[Int(VMIN)] = 1
            cc[Int(VTIME)] = 0
        }
        saved.withLock { $0 = original }
        tcsetattr(0, TCSAFLUSH, &raw)
        write(SGR.enterFullScreen)
    }

    /// Leaves the alternate screen, shows the cursor, stops mouse reporting and restores the
    /// saved terminal settings. Safe to call more than once.
    public func restore() {
        guard var original = saved.withLock({ state -> termios? in defer { state = nil }; return state }) else { return }
        write(SGR.leaveFullScreen)
        tcsetattr(0, TCSAFLUSH, &original)
    }

    public func write(_ text: String) {
        _ = LocalFile.writeAll(1, Array(text.utf8))
    }
}
