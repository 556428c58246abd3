import Testing
@testable import PasscodeKit

@Suite struct ServerSentEventParserTests {
    let stream = "event: code\ndata: {\"code\":\"4821\"}\n\nevent: setup\ndata: {\"setup\":[3,9,0,7,1,8,2,6,5,4]}\n\n"
    var expected: [ServerSentEvent] {
        [ServerSentEvent(type: "code", data: #"{"code":"4821"}"#),
         ServerSentEvent(type: "setup", data: #"{"setup":[3,9,0,7,1,8,2,6,5,4]}"#)]
    }

    func parse(_ chunks: [[UInt8]]) throws -> [ServerSentEvent] {
        var parser = ServerSentEventParser()
        var events: [ServerSentEvent] = []
        for chunk in chunks { events += try parser.feed(chunk) }
        return events
    }

    @Test func wholeStream() throws {
        #expect(try parse([Array(stream.utf8)]) == expected)
    }

    @Test func splitAtEveryByte() throws {
        let bytes = Array(stream.utf8)
        for split in 0...bytes.count {
            #expect(try parse([Array(bytes[..<split]), Array(bytes[split...])]) == expected, "split at \(split)")
        }
        #expect(try parse(bytes.map { [$0] }) == expected)
    }

    @Test(arguments: ["\n", "\r\n", "\r"])
    func everyLineEnding(_ ending: String) throws {
        let text = stream.replacingLineEnds(with: ending)
        let bytes = Array(text.utf8)
        #expect(try parse([bytes]) == expected)
        // A CRLF split between two chunks is still one line end.
        for split in 0...bytes.count {
            #expect(try parse([Array(bytes[..<split]), Array(bytes[split...])]) == expected)
        }
    }

    @Test func commentsAreSkippedAndDataLinesJoin() throws {
        let text = ": keep-alive\nevent: note\ndata: first\n: in the middle\ndata:second\ndata\n\n"
        #expect(try parse([Array(text.utf8)]) == [ServerSentEvent(type: "note", data: "first\nsecond\n")])
    }

    @Test func aStreamEndingMidEventGivesNothingForIt() throws {
        let text = "event: code\ndata: {\"code\":\"4821\"}\n\nevent: setup\ndata: {\"setup\":[3,9"
        #expect(try parse([Array(text.utf8)]) == [expected[0]])
        #expect(try parse([Array("event: code\ndata: x\n".utf8)]) == [])
    }

    @Test func eventWithoutDataIsNotDispatchedAndDefaultTypeIsMessage() throws {
        #expect(try parse([Array("event: ping\n\ndata: hi\n\n".utf8)]) == [ServerSentEvent(type: "message", data: "hi")])
    }

    @Test func idsAndByteOrderMark() throws {
        let text = "\u{FEFF}id: 7\ndata: x\n\n"
        #expect(try parse([Array(text.utf8)]) == [ServerSentEvent(type: "message", data: "x", id: "7")])
    }

    @Test func endlessLinesAreBounded() {
        var parser = ServerSentEventParser(maximumEventSize: 1000)
        #expect(throws: ServerSentEventParser.Failure.eventTooLarge) {
            _ = try parser.feed([UInt8](repeating: 0x61, count: 2000))
        }
    }
}

extension String {
    func replacingLineEnds(with ending: String) -> String {
        split(separator: "\n", omittingEmptySubsequences: false).joined(separator: ending)
    }
}
