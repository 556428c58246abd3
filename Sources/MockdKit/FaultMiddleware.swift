import Hummingbird

/// Delays each request of an API and fails some with 500 `Internal Server Error`, as the
/// API's profile says. Mounted per API group; `/health` has none.
public struct FaultMiddleware<Context: RequestContext>: RouterMiddleware {
    public let profile: FaultProfile
    public let injector: FaultInjector

    public init(profile: FaultProfile, injector: FaultInjector) {
        self.profile = profile
        self.injector = injector
    }

    public func handle(_ request: Request, context: Context,
                       next: (Request, Context) async throws -> Response) async throws -> Response {
        let decision = injector.decide(profile)
        if decision.delayMilliseconds > 0 {
            try await Task.sleep(for: .milliseconds(decision.delayMilliseconds))
        }
        if decision.fails {
            return Response.text("Internal Server Error", status: .internalServerError)
        }
        return try await next(request, context)
    }
}
