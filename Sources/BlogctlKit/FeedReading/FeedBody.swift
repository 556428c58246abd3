import ToolboxKit
import BlogctlEngines

/// A feed's response body read as a document (`FeedDocument.Reader`), a piece at a time from
/// memory or from the file it spilled to, inflated as it is read when the server gzipped it.
enum FeedBody {
    /// The size of the pieces a body that came whole is handed to the parser in.
    static let piece = 64 << 10

    /// The body size from which a feed's body goes to a temporary file as it arrives
    /// (`APIClient.send`'s `spillFrom`): a refresh of several big feeds at once holds none of
    /// their bodies, whatever `--jobs` is.
    static let spilledFrom = 4 << 20

    /// The document in `response` (from `url`, named `shown` in errors): a feed, or a web page. Its body is read as
    /// sent, or inflated when the server gzipped it (`Accept-Encoding: gzip` is asked for, as
    /// newsboat and feedparser ask): no larger than any answer may be, so a small bomb is
    /// refused, checked against its CRC, and handed to the parser as it is inflated, so the
    /// whole inflated feed is never held. Relative links resolve against where the document
    /// came from, after a temporary redirect too (feedparser's base). Throws what is wrong
    /// with the body; a document that is no feed is the result's failure.
    static func read(_ response: APIClient.Response, url: String, shown: String,
                     sink: FeedEntrySink? = nil, drafts: FeedDraftSink? = nil) throws(ToolError) -> Result<FeedDocument.Reader.Read, ToolError> {
        let reader = FeedDocument.Reader(url: documentURL(response, url), contentType: response.header("Content-Type"), sink: sink, drafts: drafts)
        var failure: ToolError?
        let add: (UnsafeBufferPointer<UInt8>) -> Void = { piece in
            guard failure == nil else { return }
            do throws(ToolError) { try reader.add(piece) } catch { failure = error }
        }
        do {
            repeat {
                try hand(response, shown: shown, to: add)
                if let failure { return .failure(failure) }
            } while try reader.readsAgain()
            return .success(try reader.finish())
        } catch {
            return .failure(error)
        }
    }

    /// Where the document in `response` came from, which its relative links resolve against.
    static func documentURL(_ response: APIClient.Response, _ url: String) -> String { response.redirectedTo ?? url }

    /// `response`'s body as the feed it is, inflated when it was gzipped (a filter feed's
    /// command reads it so).
    static func decoded(_ response: APIClient.Response, shown: String) throws(ToolError) -> [UInt8] {
        var bytes: [UInt8] = []
        try hand(response, shown: shown) { bytes += $0 }
        return bytes
    }

    /// Hands `response`'s body to `add` from its start, in pieces, inflated when it was gzipped.
    private static func hand(_ response: APIClient.Response, shown: String,
                             to add: (UnsafeBufferPointer<UInt8>) -> Void) throws(ToolError) {
        let encoding = (response.header("Content-Encoding") ?? "").lowercased().filter { $0 != " " }
        if encoding == "gzip" || encoding == "x-gzip" {
            var damage: Gzip.Failure?
            if let spilled = response.spilled {
                spilled.rewind()
                do throws(Gzip.Failure) { try Gzip.decompress(fd: spilled.fd, limit: APIClient.maximumResponse(), consume: add) } catch { damage = error }
            } else {
                // Inflated on the parse's own thread, piece by piece as libxml2 reads: a refresh
                // runs feeds side by side (`--jobs`), one document to a task.
                response.body.withUnsafeReadableBytes { compressed in
                    do throws(Gzip.Failure) {
                        try Gzip.decompress(compressed, limit: APIClient.maximumResponse(), consume: add)
                    } catch { damage = error }
                }
            }
            if let damage { throw .protocolViolation(url: shown, detail: "its gzip body: \(damage)") }
        } else {
            guard encoding.isEmpty || encoding == "identity" else {
                throw .protocolViolation(url: shown, detail: "a body in the encoding \(Terminal.quote(encoding)), not asked for")
            }
            // In pieces, as an inflated body comes: libxml2 copies what it is handed into its
            // own buffer, and a whole body handed at once would be held twice.
            if let spilled = response.spilled {
                try spilled.pieces(size: Self.piece, add)
            } else {
                response.body.withUnsafeReadableBytes { body in
                    let bytes = body.bindMemory(to: UInt8.self)
                    for start in stride(from: 0, to: bytes.count, by: Self.piece) {
                        add(UnsafeBufferPointer(rebasing: bytes[start..<min(start + Self.piece, bytes.count)]))
                    }
                }
            }
        }
    }
}
