#if canImport(Glibc)
import Glibc
#endif
import CoreKit

/// `TOOLBOX_UI_TRACE=FILE`: one line per frame drawn, `MS CAUSE… DURATION_MS`: milliseconds
/// since the screen started (monotonic), what caused the frame (`start`, `key NAME`, `resize`,
/// `data`, `tick`), and the milliseconds from reading the cause to the frame on the terminal.
/// bench/ui and the tests read it; nothing is written when the variable is unset.
final class UITrace {
    private let fd: Int32
    private let start = ContinuousClock.now

    init?(environment: [String: String] = Environment.current) {
        guard let path = environment["TOOLBOX_UI_TRACE"], !path.isEmpty else { return nil }
        fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard fd >= 0 else { return nil }
    }

    deinit { close(fd) }

    func record(causes: [String], began: ContinuousClock.Instant) {
        let now = ContinuousClock.now
        let line = Self.milliseconds(began - start, digits: 1) + " " + causes.joined(separator: " ") + " "
            + Self.milliseconds(now - began, digits: 3) + "\n"
        _ = LocalFile.writeAll(fd, Array(line.utf8))
    }

    static func milliseconds(_ duration: Duration, digits: Int) -> String {
        let (seconds, attoseconds) = duration.components
        let scale = [1, 10, 100, 1000][min(digits, 3)]
        let units = seconds * 1000 * Int64(scale) + attoseconds / (1_000_000_000_000_000 / Int64(scale))
        let whole = units / Int64(scale)
        let fraction = String(units % Int64(scale))
        return "\(whole)." + String(repeating: "0", count: digits - fraction.count) + fraction
    }
}
