import Hummingbird
import ToolboxKit

/// One line per request on stderr: method, path, status, milliseconds.
public struct RequestLogMiddleware<Context: RequestContext>: RouterMiddleware {
    public init() {}

    public func handle(_ request: Request, context: Context,
                       next: (Request, Context) async throws -> Response) async throws -> Response {
        let start = ContinuousClock.now
        do {
            let response = try await next(request, context)
            log(request, status: response.status.code, since: start)
            return response
        } catch let error as HTTPResponseError {
            log(request, status: error.status.code, since: start)
            throw error
        } catch {
            log(request, status: 500, since: start)
            throw error
        }
    }

    private func log(_ request: Request, status: Int, since start: ContinuousClock.Instant) {
        let milliseconds = Elapsed.milliseconds(since: start)
        StandardError.write("\(request.method.rawValue) \(Terminal.sanitizeField(request.uri.description)) \(status) \(milliseconds)ms")
    }
}
