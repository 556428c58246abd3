import Testing
@testable import CoreKit
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
        #expect(message == "connection refused (http://127.0.0.1:8106); is mockd running?")
        #expect(ToolError.unreachable(url: "https://api.example.com", reason: "host not found").message
                == "host not found (https://api.example.com)")
        #expect(ToolError.timedOut(url: "http://h/x", seconds: 2.5).message.contains("2.5s"))
        #expect(ToolError.unreachable(url: "https://alice:***@127.0.0.1:8106/x", reason: "connection refused").message.hasSuffix("is mockd running?"))
        #expect(ToolError.unreachable(url: "http://localhost:8106/x", reason: "connection refused").message.hasSuffix("is mockd running?"))
        // Another local server is not mockd's default place: no guess.
        #expect(!ToolError.unreachable(url: "http://127.0.0.1:9/x", reason: "connection refused").message.contains("mockd"))
        #expect(!ToolError.unreachable(url: "http://[::1]:8080/x", reason: "connection refused").message.contains("mockd"))
        #expect(!ToolError.unreachable(url: "https://127.example.com/x", reason: "host not found").message.contains("mockd"))
        #expect(!ToolError.httpStatus(url: "u", status: 500, message: "Internal Server Error").message.contains("\n"))
    }

    /// Issue 47: every error about a place says the reason first, the place after, on every
    /// surface (the CLI's line, a table cell, a status line), so that a cut line keeps it.
    @Test func theReasonComesBeforeThePlace() {
        let url = "http://127.0.0.1:18208/conditions/5b8f1c3e9d1a4c00aaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
        let reasons: [(ToolError, String)] = [
            (.unreachable(url: url, reason: "connection refused"), "connection refused ("),
            (.proxyUnreachable(proxy: "http://p:3128", reason: "connection refused"), "connection refused ("),
            (.proxyRefused(proxy: "http://p:3128", status: 502, url: url), "the proxy refused to relay the request, HTTP 502 ("),
            (.proxyRefused(proxy: "http://p:3128", status: 407, url: url), "the proxy wants credentials, HTTP 407 ("),
            (.timedOut(url: url, seconds: 5), "no answer within 5s ("),
            (.tooSlow(url: url, bytesPerSecond: 1024, seconds: 5), "under 1024 bytes a second for 5s ("),
            (.httpStatus(url: url, status: 500, message: "Internal Server Error"), "HTTP 500: Internal Server Error ("),
            (.credentialsRefused(url: url), "credentials refused ("),
            (.notTheAPI(url: url, base: "http://127.0.0.1:18208"), "HTTP 404, http://127.0.0.1:18208 is not the API's base URL ("),
            (.certificate(url: url, reason: "certificate has expired"), "untrusted certificate, certificate has expired ("),
            (.protocolViolation(url: url, detail: "not valid JSON"), "unexpected response, not valid JSON ("),
        ]
        for (error, reason) in reasons {
            #expect(error.message.hasPrefix(reason), "\(error.message)")
            #expect(error.brief.hasPrefix(reason), "\(error.brief)")
            #expect(!error.message.hasPrefix("http"))
        }
        // The brief form names the path, without advice; the message names the whole URL.
        #expect(ToolError.timedOut(url: url, seconds: 5).brief == "no answer within 5s (/conditions/5b8f1c3e9d1a4c00aaaaaaaaaaaaaaaaaaaaaaaaaaaaaa)")
        #expect(ToolError.timedOut(url: url, seconds: 5).message.hasSuffix("(\(url)); try a larger --timeout"))
    }

    /// Issue 11: ids are opaque; only what cannot be represented is refused.
    @Test func onlyUnrepresentableIdsAreRefused() throws {
        for id in ["5b8f1c3e-a1", "../../etc/passwd", "..", "a b", "a%2F", "ünïcode/?#", String(repeating: "a", count: 300)] {
            #expect(try ResourceID.validate(id) == id)
        }
        #expect(throws: ToolError.self) { try ResourceID.validate("") }
        #expect(throws: ToolError.self) { try ResourceID.validate("a\u{0}b") }
        #expect(throws: ToolError.self) { try ResourceID.validate(String(repeating: "a", count: 4097)) }
    }

    @Test func idsAreOnePathSegment() {
        #expect(ResourceID.pathSegment("a/b c?d#e%f") == "a%2Fb%20c%3Fd%23e%25f")
        #expect(ResourceID.pathSegment("..") == "%2E%2E")
        #expect(ResourceID.pathSegment(".") == "%2E")
        #expect(ResourceID.pathSegment("ü") == "%C3%BC")
        #expect(ResourceID.pathSegment("p-007.x_~") == "p-007.x_~")
    }

    @Test func fileStemsStayInTheirFolderAndNeverCollide() {
        var seen: [String: String] = [:]
        var generator = SeededGenerator(seed: 11)
        let alphabet = Array("aA0._-/ %~.\u{0}ü\n".unicodeScalars).filter { $0 != "\u{0}" }
        for length in 1...6 {
            for _ in 0..<400 {
                let id = String(String.UnicodeScalarView((0..<length).map { _ in alphabet[Int(generator.next() % UInt64(alphabet.count))] }))
                let stem = ResourceID.fileStem(id)
                #expect(!stem.contains("/") && !stem.hasPrefix(".") && !stem.isEmpty, "\(id.debugDescription) -> \(stem)")
                #expect(ResourceID.isFileStem(Substring(stem)))
                if let other = seen[stem] { #expect(other == id, "\(id.debugDescription) and \(other.debugDescription) share \(stem)") }
                seen[stem] = id
            }
        }
        let long = String(repeating: "é", count: 200)
        #expect(ResourceID.fileStem(long).count == 17 && ResourceID.fileStem(long).hasPrefix("~"))
        #expect(!ResourceID.isFileStem("a%2"))
        #expect(!ResourceID.isFileStem("a%2f"))  // not how we write it
        #expect(!ResourceID.isFileStem(".x"))
    }
}

/// Issue 10: whatever a server puts in a value, the line a tool prints for an error cannot
/// drive the terminal: no C0 but the final newline, no DEL, no C1, no raw bidi control.
@Suite struct HostileErrorTextTests {
    static let payload = "X\u{1B}]0;PWNED\u{07}\u{1B}[31mY\u{9B}2J\u{7F}\u{202E}evil\u{2066}\nsecond line\tZ"

    static var everyCase: [ToolError] {
        let p = payload
        return [.unreachable(url: p, reason: p), .timedOut(url: p, seconds: 1), .httpStatus(url: p, status: 500, message: p),
                .credentialsRefused(url: p), .protocolViolation(url: p, detail: p), .notFound(what: p), .missing(p),
                .badData(p), .usage(p), .io(path: p, reason: p), .tryLater(p), .interrupted, .bug(p)]
    }

    @Test func everyErrorPrintsOneCleanLine() {
        for error in Self.everyCase {
            let bytes = StandardError.bytes(of: "tool: " + error.message)
            #expect(bytes.last == 0x0A)
            #expect(bytes.dropLast().allSatisfy { $0 >= 0x20 && $0 != 0x7F }, "\(error)")
            let text = String(decoding: bytes, as: UTF8.self)
            #expect(!text.unicodeScalars.contains { (0x80...0x9F).contains($0.value) || Terminal.isBidiControl($0) }, "\(error)")
            if error != .interrupted { #expect(text.contains("<U+202E>evil<U+2066>"), "\(error)") }
        }
    }

    @Test func quotedValuesAreCut() {
        let long = String(repeating: "a", count: 10_000)
        #expect(Terminal.quote(long).count == 63)
        #expect(Terminal.quote("a\u{1B}b") == "\"ab\"")
    }

    @Test func jsonEscapesWhatTheEncoderLeavesRaw() throws {
        let data = JSONCoding.encode(["v": "a\u{7F}b\u{9B}c\u{202E}d\u{1B}"])
        let text = String(decoding: data, as: UTF8.self)
        #expect(text == #"{"v":"a\u007fb\u009bc\u202ed\u001b"}"#)
        #expect(try JSONCoding.decode([String: String].self, from: data) == ["v": "a\u{7F}b\u{9B}c\u{202E}d\u{1B}"])
    }
}

/// Issue 38, item 3: the reason first wherever a message is cut at its end.
@Suite struct BriefErrorTests {
    @Test func theReasonComesFirst() {
        #expect(ToolError.unreachable(url: "http://127.0.0.1:41713/devices/WWM-1", reason: "connection refused").brief
                == "connection refused (/devices/WWM-1)")
        #expect(ToolError.httpStatus(url: "http://h/devices/X", status: 500, message: "Internal Server Error").brief
                == "HTTP 500: Internal Server Error (/devices/X)")
        #expect(ToolError.timedOut(url: "http://h/x", seconds: 2.5).brief == "no answer within 2.5s (/x)")
        #expect(ToolError.unreachable(url: "http://h:1", reason: "connection refused").brief == "connection refused (h:1)")
        #expect(ToolError.badData("x").brief == "x")
    }
}
