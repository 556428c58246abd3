#if canImport(Glibc)
import Glibc
#endif
import FoundationEssentials

/// The local clock, as the C library keeps it (`TZ` applies): the one place the toolbox asks
/// for the zone's offset, for dates typed by a user (`DateInput`) and months grouped for one
/// (`PostOrdering`).
public enum LocalTime {
    /// Seconds east of UTC at `date`.
    @Sendable public static func offset(at date: Date) -> Int {
        var seconds = time_t(date.timeIntervalSince1970.rounded(.down))
        var parts = tm()
        localtime_r(&seconds, &parts)
        return Int(parts.tm_gmtoff)
    }
}
