#if canImport(Glibc)
import Glibc
#endif
import Synchronization

/// For crash tests only: with `TOOLBOX_TEST_KILL_AT_STATEMENT=N` in its environment, a process
/// kills itself with SIGKILL just before its Nth SQLite statement (counted over every
/// connection, from 1). A test that runs a command once for every N sees it die at every
/// statement of its transactions, which a kill at a random moment cannot promise. Unset, the
/// cost is one comparison per statement.
enum CrashPoint {
    static let statement: Int = {
        guard let value = getenv("TOOLBOX_TEST_KILL_AT_STATEMENT") else { return 0 }
        return Int(String(cString: value)) ?? 0
    }()
    static let count = Atomic<Int>(0)

    static func reach() {
        guard statement > 0 else { return }
        if count.add(1, ordering: .relaxed).newValue == statement { kill(getpid(), SIGKILL) }
    }
}
