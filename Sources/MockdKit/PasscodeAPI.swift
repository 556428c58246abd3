import Hummingbird
import NIOCore
import ToolboxKit

/// The dynamic passcode API: `POST /getPasscodeInternals` with HTTP Basic credentials,
/// answered as server-sent events `code` and `setup`, each after its own random delay
/// (0–3 s by default), in either order, then the end of the stream. The original server's
/// two completion blocks become two events. Wrong credentials answer 401 and missing ones
/// 400, before any stream. A failure answers 500, sends `event: error` in place of one
/// event, or cuts the stream after the first, chosen by the seeded generator.
public struct PasscodeAPI: MockAPI {
    public let name = "passcode"
    public let defaultFaults = FaultProfile(latency: LatencyRange(0, 3000), failureRate: 0)

    public let user: String
    public let password: String
    /// The codes to choose from; empty means any 4 digits.
    public let codes: [String]

    /// `--passcode-codes`: 4-digit codes separated by commas, or nil when that is not what
    /// `text` holds.
    public static func parseCodes(_ text: String) -> [String]? {
        let codes = text.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        let valid = codes.allSatisfy { $0.utf8.count == 4 && $0.utf8.allSatisfy { $0 >= 0x30 && $0 <= 0x39 } }
        return valid ? codes : nil
    }

    public init(user: String = "Runloop", password: String = "Run!@0p", codes: [String] = []) {
        self.user = user
        self.password = password
        self.codes = codes
    }

    public func register(on router: Router<BasicRequestContext>, faults: FaultMiddleware<BasicRequestContext>) {
        // The delays are per event, so the fault middleware's single delay is not used here;
        // its profile and generator are.
        let profile = faults.profile
        let injector = faults.injector
        router.post("/getPasscodeInternals") { request, _ in
            guard let header = request.headers[.authorization] else {
                return Response.text("Bad Request: missing credentials", status: .badRequest)
            }
            guard header == expectedHeader else {
                var response = Response.text("Unauthorized", status: .unauthorized)
                response.headers[.wwwAuthenticate] = "Basic realm=\"passcode\""
                return response
            }
            let first = injector.decide(profile)
            let second = injector.decide(profile)
            let choice = injector.unit()
            let codeFirst = injector.unit() < 0.5
            let code = pickCode(injector.unit())
            let setup = shuffledDigits(injector)
            // How this call fails, if it does: 500 now, an error event, or a cut stream.
            enum Fault { case none, status500, errorEvent, cut }
            let fault: Fault = !first.fails ? .none : (choice < 1.0 / 3 ? .status500 : (choice < 2.0 / 3 ? .errorEvent : .cut))
            if fault == .status500 { return Response.text("Internal Server Error", status: .internalServerError) }
            let codeEvent = "event: code\ndata: {\"code\":\"\(code)\"}\n\n"
            let setupEvent = "event: setup\ndata: {\"setup\":[\(setup.map(String.init).joined(separator: ","))]}\n\n"
            let events = codeFirst ? [codeEvent, setupEvent] : [setupEvent, codeEvent]
            // Both delays run from the request, as the original's two completion blocks did.
            let delays = [min(first.delayMilliseconds, second.delayMilliseconds), max(first.delayMilliseconds, second.delayMilliseconds)]
            let body = ResponseBody { writer in
                var elapsed = 0
                for (index, event) in events.enumerated() {
                    try await Task.sleep(for: .milliseconds(delays[index] - elapsed))
                    elapsed = delays[index]
                    if index == 1 && fault == .cut { throw StreamCut() }
                    if index == 1 && fault == .errorEvent {
                        try await writer.write(ByteBuffer(string: "event: error\ndata: {\"error\":\"internal error\"}\n\n"))
                        break
                    }
                    try await writer.write(ByteBuffer(string: event))
                }
                try await writer.finish(nil)
            }
            return Response(status: .ok, headers: [.contentType: "text/event-stream", .cacheControl: "no-cache"], body: body)
        }
    }

    struct StreamCut: Error {}

    var expectedHeader: String {
        "Basic " + Base64.encode(Array("\(user):\(password)".utf8))
    }

    func pickCode(_ unit: Double) -> String {
        if !codes.isEmpty { return codes[min(codes.count - 1, Int(unit * Double(codes.count)))] }
        let value = min(9999, Int(unit * 10000))
        let digits = String(value)
        return String(repeating: "0", count: 4 - digits.count) + digits
    }

    /// A seeded Fisher–Yates shuffle of 0…9.
    func shuffledDigits(_ injector: FaultInjector) -> [Int] {
        var digits = Array(0...9)
        for index in stride(from: 9, to: 0, by: -1) {
            let other = min(index, Int(injector.unit() * Double(index + 1)))
            digits.swapAt(index, other)
        }
        return digits
    }
}
