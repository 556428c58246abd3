import Synchronization

/// A spinner, then a progress bar once the total is known, drawn on stderr only when it is
/// a terminal and `--quiet` is absent. Never writes to stdout. Safe to update from any task.
public final class ProgressDisplay: Sendable {
    private struct State {
        var done: Int64 = 0
        var total: Int64?
        var frame = 0
        var finished = false
        var lastDraw: ContinuousClock.Instant?
        var drewSomething = false
    }

    /// What is counted: bytes (shown as kB, MB) or items (shown as 3/10).
    public enum Unit: Sendable { case bytes, items }

    public let label: String
    public let enabled: Bool
    public let unit: Unit
    private let state = Mutex(State())
    private let started = ContinuousClock.now
    private let ticker = Mutex<Task<Void, Never>?>(nil)
    private static let frames = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"]
    /// Whether a progress line is on stderr now: a message written meanwhile clears it first
    /// (`StandardError.write`), and the next tick draws it again below the message.
    static let drawing = Mutex(false)

    public init(label: String, enabled: Bool, unit: Unit = .bytes) {
        self.label = Terminal.sanitizeField(label)
        self.enabled = enabled
        self.unit = unit
    }

    /// Starts the spinner; it turns every 100 ms until `finish()`.
    public func start() {
        guard enabled, !state.withLock({ $0.finished }) else { return }
        let task = Task { [weak self] in
            while !Task.isCancelled {
                guard let self else { return }
                self.tick()
                try? await Task.sleep(for: .milliseconds(100))
            }
        }
        ticker.withLock { $0 = task }
    }

    /// Records progress; redraws at most every 50 ms.
    public func update(done: Int64, total: Int64?) {
        guard enabled else { return }
        let line: String? = state.withLock { state in
            guard !state.finished else { return nil }
            state.done = done
            state.total = total
            let now = ContinuousClock.now
            if let last = state.lastDraw, now - last < .milliseconds(50), done != total { return nil }
            state.lastDraw = now
            state.drewSomething = true
            return render(state)
        }
        if let line { Self.draw(line) }
    }

    private static func draw(_ line: String) {
        drawing.withLock { $0 = true }
        StandardError.writeRaw("\r" + line + SGR.clearLine)
    }

    /// Clears the line and stops the spinner.
    public func finish() {
        guard enabled else { return }
        ticker.withLock { $0?.cancel(); $0 = nil }
        let clear = state.withLock { state -> Bool in
            defer { state.finished = true }
            return !state.finished && state.drewSomething
        }
        if clear { StandardError.writeRaw("\r" + SGR.clearLine) }
        Self.drawing.withLock { $0 = false }
    }

    private func tick() {
        let line: String? = state.withLock { state in
            guard !state.finished else { return nil }
            state.frame += 1
            state.drewSomething = true
            return render(state)
        }
        if let line { Self.draw(line) }
    }

    private func render(_ state: State) -> String {
        let spinner = Self.frames[state.frame % Self.frames.count]
        guard let total = state.total, total > 0 else {
            return state.done > 0 ? "\(spinner) \(label) \(Self.bytes(state.done))" : "\(spinner) \(label)"
        }
        let fraction = min(1, Double(state.done) / Double(total))
        let seconds = max(0.001, Elapsed.seconds(since: started))
        let rate = Double(state.done) / seconds
        let barWidth = 24
        let filled = Int(fraction * Double(barWidth))
        let bar = String(repeating: "█", count: filled) + String(repeating: "░", count: barWidth - filled)
        if unit == .items {
            return "\(label) \(bar) \(state.done)/\(total)"
        }
        return "\(label) \(bar) \(Int(fraction * 100))% \(Self.bytes(state.done))/\(Self.bytes(total)) \(Self.bytes(Int64(rate)))/s"
    }

    /// `8.0 MB`, `512 B`, in SI units as du -h --si and curl show them.
    public static func bytes(_ count: Int64) -> String {
        let units = ["B", "kB", "MB", "GB", "TB"]
        var value = Double(count)
        var unit = 0
        while value >= 1000, unit < units.count - 1 {
            value /= 1000
            unit += 1
        }
        if unit == 0 { return "\(count) B" }
        let tenths = (value * 10).rounded() / 10
        return "\(tenths) \(units[unit])"
    }
}
