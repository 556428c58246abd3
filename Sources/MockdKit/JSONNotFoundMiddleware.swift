import Hummingbird

/// Unknown routes answer 404 with a JSON error body naming the route, not an empty body.
public struct JSONNotFoundMiddleware<Context: RequestContext>: RouterMiddleware {
    public init() {}

    public func handle(_ request: Request, context: Context,
                       next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as HTTPError where error.status == .notFound && error.body == nil {
            return .jsonError("no route for \(request.method.rawValue) \(request.uri.path)", status: .notFound)
        }
    }
}
