import Glibc
import Testing
@testable import CondtestKit
import ToolboxKit

@Suite struct BatchTests {
    /// Runs the batch evaluator over `input` through a pipe, capturing what it writes.
    func batch(_ expression: String, _ input: [UInt8]) throws -> (String, ToolError?) {
        let evaluator = Evaluator(try TextSyntax.parse(expression))
        var fds: [Int32] = [0, 0]
        #expect(closeOnExecPipe(&fds))
        // Write from another thread so a large input cannot fill the pipe and block.
        let writer = fds[1]
        let bytes = input
        let thread = Thread { bytes.withUnsafeBytes { _ = Glibc.write(writer, $0.baseAddress, $0.count) }; close(writer) }
        thread.start()
        var outFds: [Int32] = [0, 0]
        #expect(closeOnExecPipe(&outFds))
        var collected: [UInt8] = []
        let reader = Thread { [outFds] in
            var chunk = [UInt8](repeating: 0, count: 65536)
            while true {
                let count = chunk.withUnsafeMutableBytes { read(outFds[0], $0.baseAddress, $0.count) }
                if count <= 0 { break }
                collected += chunk[0..<count]
            }
        }
        reader.start()
        var failure: ToolError?
        do {
            var stream = StandardOutput(fd: outFds[1])
            do { try BatchEvaluator(evaluator).run(input: fds[0], output: &stream) } catch { failure = error }
            stream.flush()
        }
        close(outFds[1])
        thread.join()
        reader.join()
        close(fds[0])
        close(outFds[0])
        let text = String(decoding: collected, as: UTF8.self)
        return (text, failure)
    }

    @Test func oneResultPerLineInOrder() throws {
        let (out, error) = try batch(#"and(ne(arg1, "rollout.io"), containsString(arg1, "ro"))"#,
                                     Array("rollout.io\nrobot\nxyz\nro\n".utf8))
        #expect(error == nil)
        #expect(out == "false\ntrue\nfalse\ntrue\n")
    }

    @Test func tabsSeparateArgumentsAndTheLastLineNeedsNoNewline() throws {
        let (out, error) = try batch(#"and(eq(arg1, "a"), eq(arg2, "b c"))"#, Array("a\tb c\na\tb\r\na\tb c".utf8))
        #expect(error == nil)
        #expect(out == "true\nfalse\ntrue\n")
    }

    @Test func emptyFieldsAreEmptyStrings() throws {
        let (out, _) = try batch(#"eq(arg1, arg2)"#, Array("\t\nx\t\n".utf8))
        #expect(out == "true\nfalse\n")
    }

    @Test func missingFieldsStopWithTheLineNumber() throws {
        let (out, error) = try batch(#"eq(arg1, arg2)"#, Array("a\ta\nonly\n".utf8))
        #expect(out == "true\n")
        #expect(error == .badData("line 2: the condition takes 2 arguments, got 1"))
    }

    @Test func extraFieldsAreIgnored() throws {
        let (out, error) = try batch(#"eq(arg1, "a")"#, Array("a\tb\nb\ta\na\t\t\n".utf8))
        #expect(error == nil)
        #expect(out == "true\nfalse\ntrue\n")
    }

    @Test func invalidUTF8AndNULAreRefused() throws {
        let (_, utf8) = try batch(#"eq(arg1, "a")"#, [0x61, 0x0A, 0xFF, 0xFE, 0x0A])
        #expect(utf8 == .badData("line 2: not valid UTF-8"))
        let (_, nul) = try batch(#"eq(arg1, "a")"#, [0x61, 0x00, 0x0A])
        #expect(nul == .badData("line 1: NUL byte in the arguments"))
        let (out, _) = try batch(#"eq(arg1, "é")"#, Array("é\ne\n".utf8))
        #expect(out == "true\nfalse\n")
    }

    @Test func manyLinesAcrossBufferBoundaries() throws {
        var input: [UInt8] = []
        var expected = ""
        for index in 0..<200_000 {
            let word = index % 3 == 0 ? "robot\(index)" : "zz\(index)"
            input += Array(word.utf8) + [0x0A]
            expected += index % 3 == 0 ? "true\n" : "false\n"
        }
        let (out, error) = try batch(#"containsString(arg1, "ro")"#, input)
        #expect(error == nil)
        #expect(out == expected)
    }

    @Test func aLineLongerThanTheBufferStillWorks() throws {
        let long = [UInt8](repeating: 0x61, count: 3 << 20) + Array("ro\nx\n".utf8)
        let (out, error) = try batch(#"endsWith(arg1, "ro")"#, long)
        #expect(error == nil)
        #expect(out == "true\nfalse\n")
    }
}

/// A joinable thread on pthreads, for tests that need blocking I/O off the test's task.
final class Thread {
    private var handle = pthread_t()
    private let body: () -> Void
    init(_ body: @escaping () -> Void) { self.body = body }
    func start() {
        let box = Unmanaged.passRetained(self)
        pthread_create(&handle, nil, { raw in
            let thread = Unmanaged<Thread>.fromOpaque(raw!).takeRetainedValue()
            thread.body()
            return nil
        }, box.toOpaque())
    }
    func join() { pthread_join(handle, nil) }
}

/// A pipe that child processes started by other tests do not inherit (an inherited write
/// end would keep the pipe open and the reader waiting).
func closeOnExecPipe(_ fds: inout [Int32]) -> Bool {
    guard pipe(&fds) == 0 else { return false }
    return fcntl(fds[0], F_SETFD, FD_CLOEXEC) == 0 && fcntl(fds[1], F_SETFD, FD_CLOEXEC) == 0
}
