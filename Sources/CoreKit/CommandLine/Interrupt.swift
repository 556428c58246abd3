#if canImport(Glibc)
import Glibc
#endif

/// What Ctrl-C does while a long download draws progress: clear the progress line and exit
/// with status 130 at once. Nothing is half-written: caches are written with rename, and the
/// download itself lives in memory until it is complete.
public enum Interrupt {
    /// Installs the handler for SIGINT and SIGTERM. Only async-signal-safe calls inside.
    public static func clearLineAndExit() {
        var action = sigaction()
        action.__sigaction_handler.sa_handler = { signal in
            // SGR.clearLine, spelled out: a signal handler may not build a String.
            let clear: StaticString = "\r\u{1B}[K"
            if isatty(2) == 1 { _ = Glibc.write(2, clear.utf8Start, clear.utf8CodeUnitCount) }
            _exit(128 + signal)
        }
        sigemptyset(&action.sa_mask)
        sigaction(SIGINT, &action, nil)
        sigaction(SIGTERM, &action, nil)
    }
}
