// The saved listing of earlier versions, listing.tsv (issue 39), read once to take it into the
// library (issue 63): a file in the cache folder, so any bytes. Properties:
// any input decodes to posts or to a damage without a crash; posts decoded, written again,
// decode to the same posts; and any posts (fields cut from the input) round-trip.
import FoundationEssentials

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    if case .success(let posts) = ListingFile.decode(bytes) {
        guard (try? ListingFile.decode(ListingFile.encode(posts)).get()) == posts else { fatalError("decoded posts do not round-trip") }
    }
    let fields = bytes.split(separator: 0x1F, omittingEmptySubsequences: false).map { String(decoding: $0, as: UTF8.self) }
    func field(_ index: Int) -> String { fields.isEmpty ? "" : fields[index % fields.count] }
    let posts = stride(from: 0, to: max(fields.count, 1), by: 7).map { start in
        PostMetadata(id: field(start), title: field(start + 1), publishDate: Date(timeIntervalSince1970: Double(size) * 1234.5),
                     postId: field(start + 2), summary: field(start + 3),
                     author: Author(name: field(start + 4), image: field(start + 5), title: field(start + 6)))
    }
    guard (try? ListingFile.decode(ListingFile.encode(posts)).get()) == posts else { fatalError("posts from the input do not round-trip") }
    return 0
}
