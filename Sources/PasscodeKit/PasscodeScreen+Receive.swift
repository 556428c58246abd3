import ScreenKit
import ToolboxKit

extension PasscodeScreen {
    public mutating func receive(_ message: Message) -> [Command] {
        switch message {
        case .snapshot(let snapshot):
            machine = snapshot.machine
            failureIsPermanent = snapshot.isPermanentFailure
            permanentError = snapshot.isPermanentFailure ? snapshot.lastError : nil
            if gate.once && snapshot.effects.contains(.unlocked) {
                outcome = .unlocked
                return []
            }
            if gate.once, snapshot.consecutiveFailures > gate.maxFailures || snapshot.isPermanentFailure, let error = snapshot.lastError {
                outcome = .gaveUp(error)
                return []
            }
            var commands: [Command] = []
            for effect in snapshot.effects where effect == .unlocked || effect == .rejected {
                token += 1
                feedback = (effect == .unlocked ? .unlocked : .rejected, token)
                // "✗ wrong code" stays until the next key, as pinentry's error does (issue 47:
                // it was gone within the second the new layout took); "unlocked" for a while.
                commands = effect == .unlocked ? [.feedbackTimer(token: token)] : []
            }
            return commands
        case .feedbackOver(let over):
            if feedback?.token == over { feedback = nil }
        case .idle(let token):
            if token == idleToken { outcome = .timedOut }
        case .refused:
            outcome = .cancelled
        }
        return []
    }
}
