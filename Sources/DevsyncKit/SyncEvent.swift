/// What a sync is doing to each change, as it happens: the sync screen shows every change's
/// state live from these.
public enum SyncEvent: Sendable, Equatable {
    /// The changes this round took, in the order they are sent; `heldElsewhere` another live
    /// devsync process is sending.
    case claimed([String], heldElsewhere: Int)
    /// Try `attempt` (1 for the first) of a change is on its way.
    case sending(String, attempt: Int)
    /// A try failed for a transient reason; retry `retry` (1-based) follows after `seconds`.
    case waiting(String, retry: Int, seconds: Double, error: String)
    case synced(String)
    /// The server refused it (4xx), with its message; kept as rejected.
    case rejected(String, message: String)
    /// Still pending for a transient reason (retries spent, or the sync was stopped).
    case kept(String, message: String)
}
