import Synchronization
import ToolboxKit

/// `passcode fetch`: one whole call, both halves, with retries for transient failures.
public enum InternalsFetch {
    public static func once(_ source: any InternalsSource, policy: RetryPolicy) async throws(ToolError) -> (code: String, setup: [Int]) {
        do {
            return try await policy.run(isRetryable: { ($0 as? ToolError).map(NetworkFailure.isTransient) ?? false }) { _ in
                let received = Mutex<(String?, [Int]?)>((nil, nil))
                try await source.fetch { arrival in
                    received.withLock { state in
                        switch arrival {
                        case .code(let code): state.0 = code
                        case .setup(let setup): state.1 = setup
                        }
                    }
                }
                let (code, setup) = received.withLock { $0 }
                guard let code, let setup, PasscodeMachine.isValidCode(code), PasscodeMachine.isValidSetup(setup) else {
                    throw ToolError.protocolViolation(url: ServerInternalsSource.path, detail: "a malformed code or setup")
                }
                return (code, setup)
            }
        } catch let error as ToolError {
            throw error
        } catch {
            throw .bug(String(describing: error))
        }
    }
}
