// GET /post-metadata read in place (PostListDecoder, issue 39) against Foundation's decoder:
// whenever the fast reader answers, the decoder must accept the document too and read the
// same posts and skip the same records with the same words; when it answers nil, the decoder
// decides. Any bytes; seeded with fuzz/seeds/post-list.json (every kind of record the unit test makes).
import FoundationEssentials

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = UnsafeRawBufferPointer(start: data, count: size)
    guard let fast = PostListDecoder.decode(bytes) else { return 0 }
    guard let slow = try? JSONCoding.decode(LenientList<PostMetadata>.self, from: Data(bytes)) else {
        fatalError("the fast reader accepted a document the decoder refuses")
    }
    guard fast.records == slow.records else { fatalError("posts differ from the decoder's") }
    guard fast.skipped == slow.skipped else { fatalError("skipped records differ: \(fast.skipped) vs \(slow.skipped)") }
    return 0
}
