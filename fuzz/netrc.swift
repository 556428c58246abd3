// ~/.netrc parsing and lookup. Property: no crash, no hang.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let netrc = Netrc(parsing: String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self))
    _ = netrc.entry(for: "127.0.0.1")
    _ = netrc.entry(for: "")
    return 0
}
