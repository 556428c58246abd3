import Foundation
import Testing
import TestSupport
import ToolboxKit

/// Issue 49: the one HTTP client says where a resource moved for good, so that a feed reader
/// can keep the new URL: only when every hop was permanent (301, 308).
@Suite struct PermanentRedirectEndToEndTests {
    static func redirect(_ status: String, to location: String) throws -> StubServer {
        try StubServer(response: "HTTP/1.1 \(status)\r\nLocation: \(location)\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
    }

    @Test func movedOnlyWhenEveryHopIsPermanent() async throws {
        let target = try StubServer(response: "HTTP/1.1 200 OK\r\nContent-Length: 2\r\nConnection: close\r\n\r\nok")
        defer { target.stop() }
        let permanent = try Self.redirect("308 Permanent Redirect", to: target.url + "/final")
        defer { permanent.stop() }
        let chain = try Self.redirect("301 Moved Permanently", to: permanent.url + "/middle")
        defer { chain.stop() }
        let temporary = try Self.redirect("302 Found", to: target.url + "/final")
        defer { temporary.stop() }
        let mixed = try Self.redirect("301 Moved Permanently", to: temporary.url + "/middle")
        defer { mixed.stop() }

        let direct = try await fetch(target.url, "/final")
        #expect(direct.status == 200 && direct.movedPermanently == nil && direct.redirectedTo == nil)
        #expect(try await fetch(permanent.url, "/old").movedPermanently == target.url + "/final")
        #expect(try await fetch(chain.url, "/old").movedPermanently == target.url + "/final")
        let viaTemporary = try await fetch(mixed.url, "/old")
        #expect(viaTemporary.status == 200 && viaTemporary.movedPermanently == nil)
        // Where the body came from, however it got there: the base of its relative links.
        #expect(viaTemporary.redirectedTo == target.url + "/final")
        #expect(try await fetch(chain.url, "/old").redirectedTo == target.url + "/final")
    }
}
