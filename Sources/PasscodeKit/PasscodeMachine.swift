/// The passcode screen as a pure state machine: state + event → state + effects. Every
/// rule of the brief lives here and nowhere else; the session runs it, the views draw it.
public struct PasscodeMachine: Sendable, Equatable {
    public static let codeLength = 4
    public static let initialLayout = Array(0...9)

    /// Where the screen is.
    public enum Phase: Sendable, Equatable {
        /// Waiting for call `call`; input is ignored. What has arrived so far is kept apart
        /// from the screen until both halves of the same call are in.
        case loading(call: Int, code: String?, setup: [Int]?)
        /// Accepting digits.
        case ready(code: String, entered: [Int])
        /// Call `call` failed; a retry comes after a pause or on a key.
        case failed(call: Int, message: String)
    }

    public enum Event: Sendable, Equatable {
        case start
        case codeArrived(call: Int, code: String)
        case setupArrived(call: Int, setup: [Int])
        case fetchFailed(call: Int, message: String)
        /// The pause after a failure is over.
        case retryDue(call: Int)
        case digit(Int)
        case delete
        case cancel
    }

    public enum Effect: Sendable, Equatable {
        /// Start call `call` to the server.
        case fetch(call: Int)
        /// Stop waiting on call `call` (a newer one replaces it).
        case abandon(call: Int)
        /// Send `.retryDue(call)` after the backoff pause for the `attempt`-th failure in a row (0-based).
        case scheduleRetry(call: Int, attempt: Int)
        case unlocked
        case rejected
    }

    public private(set) var phase: Phase
    /// The keypad order on screen: 0…9 at first, then each call's setup.
    public private(set) var layout: [Int]
    private var nextCall = 1
    /// Failed calls in a row, for the backoff; a good call resets it.
    private var failures = 0

    public init() {
        phase = .loading(call: 0, code: nil, setup: nil)
        layout = Self.initialLayout
    }

    /// Digits entered so far (0 unless ready).
    public var progress: Int {
        if case .ready(_, let entered) = phase { return entered.count }
        return 0
    }

    public var isFailed: Bool {
        if case .failed = phase { return true }
        return false
    }

    public var acceptsInput: Bool {
        if case .ready = phase { return true }
        return false
    }

    /// Applies `event`, returning what the outside world must do.
    public mutating func handle(_ event: Event) -> [Effect] {
        switch (phase, event) {
        case (_, .start):
            return beginCall(abandoning: currentCall)

        case (.loading(let call, _, let setup), .codeArrived(let arrivedCall, let code)) where arrivedCall == call:
            guard Self.isValidCode(code) else { return fail(call, "the server sent a malformed code") }
            return complete(call: call, code: code, setup: setup)

        case (.loading(let call, let code, _), .setupArrived(let arrivedCall, let setup)) where arrivedCall == call:
            guard Self.isValidSetup(setup) else { return fail(call, "the server sent a malformed keypad setup") }
            return complete(call: call, code: code, setup: setup)

        case (.loading(let call, _, _), .fetchFailed(let failedCall, let message)) where failedCall == call:
            return fail(call, message)

        case (.failed(let call, _), .retryDue(let dueCall)) where dueCall == call:
            return beginCall(abandoning: nil)

        // A key on the error screen retries at once (rule: "retry with backoff, or on a key").
        case (.failed, .digit), (.failed, .delete), (.failed, .cancel):
            return beginCall(abandoning: nil)

        case (.ready(let code, var entered), .digit(let digit)) where (0...9).contains(digit):
            entered.append(digit)
            guard entered.count == Self.codeLength else {
                phase = .ready(code: code, entered: entered)
                return []
            }
            if entered.map(String.init).joined() == code {
                return [.unlocked] + beginCall(abandoning: nil)
            }
            phase = .ready(code: code, entered: [])
            return [.rejected]

        case (.ready(let code, var entered), .delete):
            guard !entered.isEmpty else { return [] }
            entered.removeLast()
            phase = .ready(code: code, entered: entered)
            return []

        case (.ready(let code, let entered), .cancel):
            guard !entered.isEmpty else { return [] }
            phase = .ready(code: code, entered: [])
            return []

        default:
            // Keys while loading are ignored, not queued; arrivals from an older call are stale.
            return []
        }
    }

    private var currentCall: Int? {
        switch phase {
        case .loading(let call, _, _): return call == 0 ? nil : call
        case .failed: return nil
        case .ready: return nil
        }
    }

    private mutating func beginCall(abandoning old: Int?) -> [Effect] {
        let call = nextCall
        nextCall += 1
        phase = .loading(call: call, code: nil, setup: nil)
        let abandon: [Effect] = old.map { [.abandon(call: $0)] } ?? []
        return abandon + [.fetch(call: call)]
    }

    /// Both halves of one call are in: the keypad takes the setup's order.
    private mutating func complete(call: Int, code: String?, setup: [Int]?) -> [Effect] {
        guard let code, let setup else {
            phase = .loading(call: call, code: code, setup: setup)
            return []
        }
        layout = setup
        failures = 0
        phase = .ready(code: code, entered: [])
        return []
    }

    private mutating func fail(_ call: Int, _ message: String) -> [Effect] {
        phase = .failed(call: call, message: message)
        failures += 1
        return [.abandon(call: call), .scheduleRetry(call: call, attempt: failures - 1)]
    }

    static func isValidCode(_ code: String) -> Bool {
        code.utf8.count == codeLength && code.utf8.allSatisfy { (0x30...0x39).contains($0) }
    }

    static func isValidSetup(_ setup: [Int]) -> Bool {
        setup.count == 10 && Set(setup) == Set(0...9)
    }
}
