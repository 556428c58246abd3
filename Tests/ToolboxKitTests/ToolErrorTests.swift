import Testing
@testable import ToolboxKit

@Suite struct ToolErrorTests {
    @Test func exitStatusesFollowSysexits() {
        #expect(ToolError.unreachable(url: "u", reason: "r").exitStatus.rawValue == 69)
        #expect(ToolError.notFound(what: "condition 7").exitStatus.rawValue == 66)
        #expect(ToolError.httpStatus(url: "u", status: 404, message: "").exitStatus.rawValue == 66)
        #expect(ToolError.httpStatus(url: "u", status: 500, message: "").exitStatus.rawValue == 69)
        #expect(ToolError.badData("x").exitStatus.rawValue == 65)
        #expect(ToolError.protocolViolation(url: "u", detail: "d").exitStatus.rawValue == 76)
        #expect(ToolError.credentialsRefused(url: "u").exitStatus.rawValue == 77)
        #expect(ToolError.io(path: "p", reason: "r").exitStatus.rawValue == 74)
        #expect(ToolError.tryLater("x").exitStatus.rawValue == 75)
        #expect(ToolError.usage("x").exitStatus.rawValue == 64)
        #expect(ToolError.interrupted.exitStatus.rawValue == 130)
        #expect(ToolError.bug("x").exitStatus.rawValue == 70)
    }

    @Test func messagesAreOneLine() {
        let message = ToolError.unreachable(url: "http://127.0.0.1:8106", reason: "connection refused").message
        #expect(message == "cannot reach http://127.0.0.1:8106 (connection refused); is mockd running?")
        #expect(ToolError.unreachable(url: "https://api.example.com", reason: "host not found").message
                == "cannot reach https://api.example.com (host not found)")
        #expect(ToolError.timedOut(url: "http://h/x", seconds: 2.5).message.contains("2.5s"))
        #expect(!ToolError.httpStatus(url: "u", status: 500, message: "Internal Server Error").message.contains("\n"))
    }

    @Test func idsAreValidatedBeforeUse() throws {
        #expect(try ResourceID.validate("5b8f1c3e-a1") == "5b8f1c3e-a1")
        #expect(throws: ToolError.self) { try ResourceID.validate("../../etc/passwd") }
        #expect(throws: ToolError.self) { try ResourceID.validate("..") }
        #expect(throws: ToolError.self) { try ResourceID.validate("") }
        #expect(throws: ToolError.self) { try ResourceID.validate("a b") }
        #expect(throws: ToolError.self) { try ResourceID.validate("a%2F") }
        #expect(throws: ToolError.self) { try ResourceID.validate(String(repeating: "a", count: 129)) }
    }
}
