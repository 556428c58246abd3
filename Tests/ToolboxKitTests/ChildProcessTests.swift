import Glibc
import Testing
import CoreKit
import TestSupport

/// The one spawn helper: streams go where they are said to, the environment is the one given,
/// and how the child ended is told apart.
@Suite struct ChildProcessTests {
    static func read(_ path: String) -> String {
        guard let bytes = try? LocalFile.read(path, limit: 1 << 20) else { return "" }
        return String(decoding: bytes, as: UTF8.self)
    }

    @Test func anExitStatusAndASignalAreToldApart() {
        #expect(ChildProcess.run(["/bin/sh", "-c", "exit 3"]) == .exited(3))
        #expect(ChildProcess.run(["/bin/sh", "-c", "kill -KILL $$"]) == .signalled(SIGKILL))
        #expect(ChildProcess.run(["/bin/true"])?.succeeded == true)
    }

    @Test func aProgramThatCannotStartIsNil() {
        #expect(ChildProcess.start(["/nonexistent/program"]) == nil)
    }

    @Test func outputGoesToTheFileAndTheEnvironmentIsTheOneGiven() {
        let path = TemporaryFolders.make("spawn") + "/out"
        let ending = ChildProcess.run(["/bin/sh", "-c", "echo \"$ONLY:${HOME:-unset}\"; echo oops >&2"],
                                      environment: ["ONLY": "given"], input: .null, output: .file(path), errors: .null)
        #expect(ending == .exited(0))
        #expect(Self.read(path) == "given:unset\n")
    }

    @Test func aPipesEndBecomesTheChildsInput() {
        let path = TemporaryFolders.make("spawn") + "/out"
        var ends: [Int32] = [0, 0]
        #expect(pipe(&ends) == 0)
        let child = ChildProcess.start(["/bin/cat"], input: .descriptor(ends[0]), output: .file(path), closing: [ends[0], ends[1]])
        close(ends[0])
        #expect(child != nil)
        _ = LocalFile.writeAll(ends[1], Array("through the pipe\n".utf8))
        close(ends[1])
        // cat ends only when every write end is closed: the child holds none (`closing`).
        #expect(child?.wait() == .exited(0))
        #expect(Self.read(path) == "through the pipe\n")
    }

    /// A descriptor of this process that is not close-on-exec (a pipe, a test server's
    /// connection) does not reach the child: a pager or browser that held one would keep a
    /// connection or a pipe of ours open for as long as it lives.
    @Test func theChildHoldsOnlyItsStandardStreams() {
        let path = TemporaryFolders.make("spawn") + "/out"
        var ends: [Int32] = [0, 0]
        #expect(pipe(&ends) == 0)
        defer { close(ends[0]); close(ends[1]) }
        let ending = ChildProcess.run(["/bin/ls", "/proc/self/fd"], output: .file(path))
        #expect(ending == .exited(0))
        let held = Set(Self.read(path).split(separator: "\n").compactMap { Int32($0) })
        // ls's own descriptor on /proc/self/fd is the one above its standard streams.
        #expect(!held.contains(ends[0]) && !held.contains(ends[1]), "\(held) holds \(ends)")
        #expect(held.filter { $0 > 2 }.count <= 1, "\(held)")
    }

    /// SIGPIPE, which this process ignores while it writes to a pager, is not ignored by the
    /// child: a pager or browser must die of a closed pipe as it would from a shell.
    @Test func theChildStartsWithSIGPIPEAtItsDefault() {
        let path = TemporaryFolders.make("spawn") + "/out"
        let previous = signal(SIGPIPE, SIG_IGN)
        defer { signal(SIGPIPE, previous) }
        let ending = ChildProcess.run(["/bin/grep", "-E", "^SigIgn", "/proc/self/status"], output: .file(path))
        #expect(ending == .exited(0))
        let masks = Dictionary(uniqueKeysWithValues: Self.read(path).split(separator: "\n").map { line in
            let parts = line.split(separator: ":")
            return (String(parts[0]), UInt64(parts[1].trimmingCharacters(in: .whitespaces), radix: 16) ?? 0)
        })
        #expect(masks["SigIgn"] != nil)
        #expect((masks["SigIgn"] ?? 1) & (1 << (UInt64(SIGPIPE) - 1)) == 0)
    }
}
