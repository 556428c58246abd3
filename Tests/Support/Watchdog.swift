import Foundation

/// Kills `process` if it still runs after `limit` seconds: a guard against a hang, so that no
/// test waits forever and none leaves a process behind, whatever it did meanwhile. Not a
/// timing assertion. A process that has ended is left alone (its pid may be reused).
public func watch(_ process: Process, limit: TimeInterval = 120) {
    DispatchQueue.global().asyncAfter(deadline: .now() + limit) { [process] in
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    }
}
