/// One server-sent event: its type (`message` when the stream gave none), its data (lines
/// joined with `\n`) and its id.
public struct ServerSentEvent: Sendable, Equatable {
    public var type: String
    public var data: String
    public var id: String?

    public init(type: String = "message", data: String, id: String? = nil) {
        self.type = type
        self.data = data
        self.id = id
    }
}

/// The event-stream parser of the HTML standard (§9.2.6), fed bytes as they arrive in
/// chunks of any size: lines end with CRLF, LF or CR (a CRLF split across two chunks is one
/// line end); `:` starts a comment; `data` lines accumulate; a blank line dispatches; an
/// event the stream ends in the middle of is discarded.
///
/// Our own rather than mattt/EventSource's `AsyncSequence.events`: that parser shares its
/// module with a URLSession client, so using it links FoundationNetworking (and libcurl)
/// into a static binary that talks HTTP through AsyncHTTPClient anyway.
public struct ServerSentEventParser: Sendable {
    private var line: [UInt8] = []
    private var sawCR = false
    private var type = ""
    private var data: [UInt8] = []
    private var hasData = false
    private var lastID: String?
    private var atStart = true
    /// Bounds memory against a server that never ends a line or an event.
    public let maximumEventSize: Int

    public init(maximumEventSize: Int = 1 << 20) {
        self.maximumEventSize = maximumEventSize
    }

    public enum Failure: Error, Equatable { case eventTooLarge }

    /// Feeds a chunk and returns the events it completed, in order.
    public mutating func feed(_ bytes: some Sequence<UInt8>) throws(Failure) -> [ServerSentEvent] {
        var events: [ServerSentEvent] = []
        for byte in bytes {
            if sawCR {
                sawCR = false
                if byte == 0x0A { continue }
            }
            switch byte {
            case 0x0D:
                sawCR = true
                if let event = endLine() { events.append(event) }
            case 0x0A:
                if let event = endLine() { events.append(event) }
            default:
                line.append(byte)
                guard line.count + data.count <= maximumEventSize else { throw .eventTooLarge }
            }
        }
        return events
    }

    /// Processes one complete line; returns an event when the line was blank.
    private mutating func endLine() -> ServerSentEvent? {
        defer { line.removeAll(keepingCapacity: true) }
        // A UTF-8 byte order mark is allowed once, at the very start of the stream.
        if atStart {
            atStart = false
            if line.starts(with: [0xEF, 0xBB, 0xBF]) { line.removeFirst(3) }
        }
        if line.isEmpty { return dispatch() }
        if line.first == UInt8(ascii: ":") { return nil }
        let field: ArraySlice<UInt8>
        var value: ArraySlice<UInt8>
        if let colon = line.firstIndex(of: UInt8(ascii: ":")) {
            field = line[..<colon]
            value = line[(colon + 1)...]
            if value.first == UInt8(ascii: " ") { value = value.dropFirst() }
        } else {
            field = line[...]
            value = []
        }
        switch String(decoding: field, as: UTF8.self) {
        case "event":
            type = String(decoding: value, as: UTF8.self)
        case "data":
            if hasData { data.append(0x0A) }
            data.append(contentsOf: value)
            hasData = true
        case "id":
            if !value.contains(0) { lastID = String(decoding: value, as: UTF8.self) }
        default:
            break  // `retry` and unknown fields do not concern a one-shot stream.
        }
        return nil
    }

    private mutating func dispatch() -> ServerSentEvent? {
        defer {
            type = ""
            data.removeAll(keepingCapacity: true)
            hasData = false
        }
        guard hasData else { return nil }
        return ServerSentEvent(type: type.isEmpty ? "message" : type, data: String(decoding: data, as: UTF8.self), id: lastID)
    }
}
