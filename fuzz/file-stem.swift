// Ids as cache file names. Properties: a stem never leaves its folder (no '/', not hidden,
// not empty), is recognised as ours, and two ids that differ in any byte get stems that differ
// even where a file system ignores case. The input holds two ids, cut at the first 0xFF byte.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = UnsafeBufferPointer(start: data, count: size)
    let cut = bytes.firstIndex(of: 0xFF) ?? size
    let first = String(decoding: bytes[..<cut], as: UTF8.self)
    let second = String(decoding: bytes[min(cut + 1, size)...], as: UTF8.self)
    for id in [first, second] where !id.isEmpty {
        let stem = ResourceID.fileStem(id)
        guard !stem.isEmpty, !stem.utf8.contains(UInt8(ascii: "/")), !stem.hasPrefix("."), ResourceID.isFileStem(Substring(stem)) else {
            fatalError("bad stem \(stem.debugDescription) for \(id.debugDescription)")
        }
    }
    guard !first.isEmpty, !second.isEmpty, !Array(first.utf8).elementsEqual(second.utf8) else { return 0 }
    let (a, b) = (ResourceID.fileStem(first), ResourceID.fileStem(second))
    if a.hasPrefix("~") && b.hasPrefix("~") { return 0 }  // 64-bit hashes: a collision is checked by the sidecar
    guard a.lowercased() != b.lowercased() else {
        fatalError("\(first.debugDescription) and \(second.debugDescription) share the stem \(a) ignoring case")
    }
    return 0
}
