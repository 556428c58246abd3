// `condtest eval --batch` lines (tab-separated arguments, one case per line) read from a
// file descriptor, against a fixed condition. Property: no crash, no hang.
import Glibc

let condition = try! TextSyntax.parse(#"or(eq(arg1, "a"), containsString(arg2, "b"))"#)
let devNull = open("/dev/null", O_WRONLY)
/// One scratch file for every input (unlinked at once), rewound and truncated each time.
let scratch: Int32 = {
    var template = Array("/tmp/fuzz-batch-XXXXXX".utf8CString)
    let fd = mkstemp(&template)
    unlink(template)
    return fd
}()

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let fd = scratch
    ftruncate(fd, 0)
    _ = pwrite(fd, data, size, 0)
    lseek(fd, 0, SEEK_SET)
    var output = StandardOutput(fd: devNull)
    _ = try? BatchEvaluator(Evaluator(condition)).run(input: fd, output: &output)
    return 0
}
