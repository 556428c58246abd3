#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CoreKit

/// Text a report must hold back until the run ends (a JSON document's totals and a JUnit
/// suite's counts come before the cases): kept in an unlinked temporary file (`tmpfile`), not
/// in memory, so that a run with any number of failures stays small; written back in pieces.
/// Without a temporary folder it falls back to memory.
final class ReportSpool {
    private let file: UnsafeMutablePointer<FILE>?
    private var memory: [UInt8] = []
    private(set) var isEmpty = true

    init() { file = tmpfile() }

    deinit { if let file { fclose(file) } }

    func append(_ text: String) {
        isEmpty = false
        var text = text
        text.withUTF8 { bytes in
            guard let file, let base = bytes.baseAddress, fwrite(base, 1, bytes.count, file) == bytes.count else {
                memory.append(contentsOf: bytes)
                return
            }
        }
    }

    /// Hands everything held to `write`, in pieces that end on whole characters, and empties the spool.
    func drain(into write: (String) -> Void) {
        defer { isEmpty = true }
        if let file {
            fflush(file)
            rewind(file)
            var buffer = [UInt8](repeating: 0, count: 1 << 16)
            var carry: [UInt8] = []
            while true {
                let count = buffer.withUnsafeMutableBytes { fread($0.baseAddress, 1, $0.count, file) }
                if count == 0 { break }
                carry += buffer[..<count]
                let cut = UTF8Cut.completePrefix(carry)
                write(String(decoding: carry[..<cut], as: UTF8.self))
                carry.removeFirst(cut)
            }
            if !carry.isEmpty { write(String(decoding: carry, as: UTF8.self)) }
            rewind(file)
            _ = ftruncate(fileno(file), 0)
        }
        if !memory.isEmpty {
            write(String(decoding: memory, as: UTF8.self))
            memory.removeAll()
        }
    }
}
