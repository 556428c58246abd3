import FoundationEssentials

// Feeds (issue 49): RSS, Atom and JSON Feed, hostile. Properties: no crash, no hang; every
// entry's id is unique and not empty, every link an absolute http(s) URL; and a well-formed
// XML feed reads the same whatever the pieces it arrives in (where libxml2 recovers from an
// error, where the cut falls may change what it recovers).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = Data(UnsafeBufferPointer(start: data, count: size))
    let url = "https://feed.example/a/feed.xml"
    for type in [nil, "application/feed+json", "text/xml; charset=iso-8859-1"] as [String?] {
        guard let feed = try? FeedDocument.parse(bytes, url: url, contentType: type) else { continue }
        var ids: Set<String> = []
        for entry in feed.entries {
            if entry.id.isEmpty || !ids.insert(entry.id).inserted { fatalError("id \(entry.id.debugDescription) empty or repeated") }
            if let link = entry.link, !(link.hasPrefix("http://") || link.hasPrefix("https://")) { fatalError("link \(link.debugDescription)") }
            if let date = entry.date, !date.timeIntervalSince1970.isFinite { fatalError("date") }
        }
    }
    guard FeedDocument.kind(contentType: nil, head: bytes.prefix(1024)) == .xml else { return 0 }
    guard let whole = try? FeedXMLParser.parse(url: url, encoding: nil, write: { stream in bytes.withUnsafeBytes { stream.feed($0) } }),
          whole.problems == 0 else { return 0 }
    for piece in [7, 97] {
        let cut = try? FeedXMLParser.parse(url: url, encoding: nil) { stream in
            bytes.withUnsafeBytes { raw in
                var offset = 0
                while offset < raw.count {
                    let end = min(offset + piece, raw.count)
                    stream.feed(UnsafeRawBufferPointer(rebasing: raw[offset..<end]))
                    offset = end
                }
            }
        }
        if cut?.entries != whole.entries || cut?.title != whole.title { fatalError("pieces of \(piece) read otherwise") }
    }
    return 0
}
