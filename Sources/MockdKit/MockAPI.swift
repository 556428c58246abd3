import Hummingbird

/// One API that mockd plays. Each declares the delays and faults of the original mock server
/// it stands for; mockd mounts its routes behind a `FaultMiddleware` with that profile.
public protocol MockAPI: Sendable {
    /// A short name for logs and errors: `conditions`, `blog`.
    var name: String { get }
    /// The original server's delays and failures, before `--latency`/`--failure-rate`.
    var defaultFaults: FaultProfile { get }
    /// Adds the API's routes to `router`, each group behind `faults`.
    func register(on router: Router<BasicRequestContext>, faults: FaultMiddleware<BasicRequestContext>)
}
