import ToolboxKit

/// The one owner of the screen's state. Every event, a key or an arrival from any task,
/// goes through this actor one at a time into the state machine; the effects it returns are
/// carried out here. Arrivals from a call the machine has moved past are ignored by the
/// machine itself, so a late answer can never mix one call's code with another's layout.
public actor PasscodeSession {
    /// What a view needs after each event.
    public struct Snapshot: Sendable, Equatable {
        public let machine: PasscodeMachine
        public let effects: [PasscodeMachine.Effect]
        /// The last failure, for exit statuses in script mode.
        public let lastError: ToolError?
        /// Calls that failed in a row since the keypad was last ready.
        public let consecutiveFailures: Int
        /// The last call failed in a way another try will not mend (a 4xx, refused
        /// credentials, an untrusted certificate): not retried by itself, and a gate gives up.
        public var isPermanentFailure = false
    }

    private var machine = PasscodeMachine()
    private let source: any InternalsSource
    private let observer: @Sendable (Snapshot) -> Void
    private let backoff: RetryPolicy
    private let sleep: @Sendable (Double) async throws -> Void
    private let random: @Sendable () -> Double
    private var calls: [Int: Task<Void, Never>] = [:]
    private var timers: [Task<Void, Never>] = []
    private var lastError: ToolError?
    private var readyWaiters: [(limit: Int, continuation: CheckedContinuation<ToolError?, Never>)] = []
    private var failuresInARow = 0
    /// Whether the failure being handled is one retrying cannot mend (`isPermanent`).
    private var failureIsPermanent = false

    public init(source: any InternalsSource, backoff: RetryPolicy = RetryPolicy(retries: .max, baseDelay: 0.5, maxDelay: 30),
                sleep: @escaping @Sendable (Double) async throws -> Void = RetryPolicy.taskSleep,
                random: @escaping @Sendable () -> Double = { Double.random(in: 0..<1) },
                observer: @escaping @Sendable (Snapshot) -> Void) {
        self.source = source
        self.backoff = backoff
        self.sleep = sleep
        self.random = random
        self.observer = observer
    }

    public var state: PasscodeMachine { machine }

    /// Feeds one event through the machine and carries out its effects.
    public func send(_ event: PasscodeMachine.Event) {
        if case .fetchFailed = event {} else if case .failed = machine.phase {} else { failureIsPermanent = false }
        let wasFailed = machine.isFailed
        let effects = machine.handle(event)
        for effect in effects { perform(effect) }
        if machine.acceptsInput {
            failuresInARow = 0
            let waiters = readyWaiters
            readyWaiters.removeAll()
            for waiter in waiters { waiter.continuation.resume(returning: nil) }
        }
        // Every call that ends in failure counts against the limit: one that failed on the
        // wire, and one whose code or setup the machine refused as malformed.
        if case .failed(_, let message) = machine.phase, !wasFailed {
            if case .fetchFailed = event {} else { lastError = .protocolViolation(url: "the server", detail: message) }
            failuresInARow += 1
            let error = lastError ?? .bug("a call failed without an error")
            readyWaiters.removeAll { waiter in
                guard failuresInARow > waiter.limit || failureIsPermanent else { return false }
                waiter.continuation.resume(returning: error)
                return true
            }
        }
        var snapshot = Snapshot(machine: machine, effects: effects, lastError: lastError, consecutiveFailures: failuresInARow)
        snapshot.isPermanentFailure = machine.isFailed && failureIsPermanent
        observer(snapshot)
    }

    /// Waits until the keypad accepts input; returns the last error instead once more than
    /// `maxFailures` calls in a row have failed.
    public func waitUntilReady(maxFailures: Int = .max) async -> ToolError? {
        if machine.acceptsInput { return nil }
        if failuresInARow > maxFailures || (machine.isFailed && failureIsPermanent) { return lastError }
        return await withCheckedContinuation { readyWaiters.append((maxFailures, $0)) }
    }

    /// Failed calls since the keypad was last ready.
    public var consecutiveFailures: Int { failuresInARow }
    public var latestError: ToolError? { lastError }

    /// Cancels every call and timer: the session is over.
    public func stop() {
        for task in calls.values { task.cancel() }
        calls.removeAll()
        for timer in timers { timer.cancel() }
        timers.removeAll()
        let waiters = readyWaiters
        readyWaiters.removeAll()
        for waiter in waiters { waiter.continuation.resume(returning: .interrupted) }
    }

    private func perform(_ effect: PasscodeMachine.Effect) {
        switch effect {
        case .fetch(let call):
            let source = self.source
            calls[call] = Task {
                do {
                    try await source.fetch { arrival in
                        switch arrival {
                        case .code(let code): await self.send(.codeArrived(call: call, code: code))
                        case .setup(let setup): await self.send(.setupArrived(call: call, setup: setup))
                        }
                    }
                    self.finished(call)
                } catch let error as ToolError {
                    self.failed(call, error)
                } catch {
                    self.failed(call, .bug(String(describing: error)))
                }
            }
        case .abandon(let call):
            calls.removeValue(forKey: call)?.cancel()
        case .scheduleRetry(let call, let attempt):
            // A 4xx is never retried by itself (a key on the error screen still retries).
            guard !failureIsPermanent else { return }
            let pause = max(0.1, backoff.delay(forRetry: attempt, unit: random()))
            let sleep = self.sleep
            timers.removeAll { $0.isCancelled }
            timers.append(Task {
                do { try await sleep(pause) } catch { return }
                self.send(.retryDue(call: call))
            })
        case .unlocked, .rejected:
            break  // Feedback is the view's; the observer sees the effect.
        }
    }

    /// What another try will not mend: the server refusing the request itself (a 4xx, but
    /// 408 and 429, which say "later"), or its certificate. A broken stream or a malformed
    /// code is a server's hiccup, retried as before.
    static func isPermanent(_ error: ToolError) -> Bool {
        switch error {
        case .credentialsRefused, .certificate: true
        case .httpStatus(_, let status, _): (400..<500).contains(status) && status != 408 && status != 429
        default: false
        }
    }

    private func finished(_ call: Int) {
        calls.removeValue(forKey: call)
    }

    private func failed(_ call: Int, _ error: ToolError) {
        guard calls.removeValue(forKey: call) != nil, error != .interrupted else { return }
        lastError = error
        failureIsPermanent = Self.isPermanent(error)
        send(.fetchFailed(call: call, message: error.message))
    }
}
