// gzip: decompression is bounded whatever the input claims; and what we compress
// decompresses to the same bytes.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    if let out = try? Gzip.decompress(bytes, limit: 1 << 20), out.count > 1 << 20 {
        fatalError("decompressed past the limit")
    }
    let round = try? Gzip.decompress(Gzip.compress(bytes), limit: max(bytes.count, 1))
    if round != bytes { fatalError("round trip changed \(bytes.count) bytes") }
    return 0
}
