import Foundation
import Testing
@testable import BlogctlKit
import TestSupport
import ToolboxKit

@Suite struct GzipTests {
    static func sample(_ count: Int) -> [UInt8] {
        var generator = SeededGenerator(seed: UInt64(count))
        let words = ["engine", "proof", "<p>", "</p>", "letter", " ", "\n", "é", "—"]
        var text = ""
        while text.utf8.count < count { text += words[Int(generator.next() % UInt64(words.count))] }
        return Array(text.utf8)
    }

    @Test func roundTrip() throws {
        for size in [0, 1, 1000, 300_000] {
            let input = Self.sample(size)
            let compressed = Gzip.compress(input)
            #expect(compressed[0] == 0x1F && compressed[1] == 0x8B && compressed[2] == 8, "gzip header")
            #expect(try Gzip.decompress(compressed, limit: input.count) == input)
        }
    }

    /// Bytes held elsewhere (a response's buffer) are inflated a MiB of input at a time, to
    /// the same output and the same errors as an array: a member longer than a MiB, cut short,
    /// with bytes after it, or over the limit.
    @Test func bytesHeldElsewhereInflateAsAnArray() throws {
        var generator = SeededGenerator(seed: 50)
        let input = (0..<3_000_000).map { _ in UInt8(truncatingIfNeeded: generator.next()) }  // incompressible: 3 MB in
        let compressed = Gzip.compress(input)
        #expect(compressed.count > 2 << 20)
        func inflate(_ bytes: [UInt8], limit: Int = 1 << 30) throws(Gzip.Failure) -> [UInt8] {
            var output: [UInt8] = []
            var failure: Gzip.Failure?
            bytes.withUnsafeBytes { raw in
                do throws(Gzip.Failure) { try Gzip.decompress(raw, limit: limit) { output += $0 } } catch { failure = error }
            }
            if let failure { throw failure }
            return output
        }
        #expect(try inflate(compressed) == input)
        #expect(throws: Gzip.Failure.self) { try inflate(Array(compressed.dropLast(9))) }
        #expect(throws: Gzip.Failure.self) { try inflate(compressed + [0]) }
        #expect(throws: Gzip.Failure.tooLarge(limit: 1000)) { try inflate(compressed, limit: 1000) }
        #expect(throws: Gzip.Failure.self) { try inflate(Array(input.prefix(100))) }
    }

    /// `gzip -c` of "hello, gzip\n": what zcat writes, we read.
    @Test func readsWhatGzipWrites() throws {
        let fromGzip = Array(Data(base64Encoded: "H4sIAAAAAAAAA8tIzcnJ11FIr8os4AIAhh+CpAwAAAA=")!)
        #expect(try Gzip.decompress(fromGzip, limit: 100) == Array("hello, gzip\n".utf8))
    }

    @Test func writesWhatGzipReads() throws {
        let input = Array("zcat reads this\n".utf8)
        let path = TemporaryFolders.file("gzip", "test.gz")
        try Data(Gzip.compress(input)).write(to: URL(fileURLWithPath: path))
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", "gzip -dc \"$0\"", path]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        #expect(Array(output) == input)
    }

    @Test func aWrongCRCIsCorrupt() throws {
        var compressed = Gzip.compress(Self.sample(5000))
        compressed[compressed.count - 6] ^= 0xFF  // inside the CRC-32
        #expect(throws: Gzip.Failure.self) { try Gzip.decompress(compressed, limit: 1 << 20) }
    }

    @Test func aWrongLengthIsCorrupt() throws {
        var compressed = Gzip.compress(Self.sample(5000))
        compressed[compressed.count - 1] ^= 0x01  // inside ISIZE
        #expect(throws: Gzip.Failure.self) { try Gzip.decompress(compressed, limit: 1 << 30) }
    }

    @Test func truncationAnywhereIsCorrupt() {
        let compressed = Gzip.compress(Self.sample(20_000))
        for cut in [compressed.count - 1, compressed.count - 8, compressed.count / 2, 19, 10] {
            #expect(throws: Gzip.Failure.self, "cut at \(cut)") { try Gzip.decompress(Array(compressed[0..<cut]), limit: 1 << 20) }
        }
    }

    /// A flipped byte never gives other data: it is corrupt, or (a flip in a Huffman table's
    /// code for a symbol never used) the very same bytes, which the CRC then vouches for.
    @Test func flippedBodyBytesAreCorruptOrHarmless() {
        let sample = Self.sample(20_000)
        let compressed = Gzip.compress(sample)
        var corrupt = 0
        for position in stride(from: 12, to: compressed.count - 8, by: max(1, compressed.count / 15)) {
            var damaged = compressed
            damaged[position] ^= 0x5A
            do {
                #expect(try Gzip.decompress(damaged, limit: 1 << 20) == sample, "flip at \(position)")
            } catch {
                corrupt += 1
            }
        }
        #expect(corrupt >= 10, "most flips are caught")
    }

    @Test func trailingBytesAreCorrupt() {
        let compressed = Gzip.compress(Self.sample(100)) + [1, 2, 3]
        #expect(throws: Gzip.Failure.self) { try Gzip.decompress(compressed, limit: 1 << 20) }
    }

    @Test func notGzipIsCorrupt() {
        #expect(throws: Gzip.Failure.corrupt("not gzip")) { try Gzip.decompress(Array("<html>hello</html> plus padding".utf8), limit: 100) }
        #expect(throws: Gzip.Failure.corrupt("not gzip")) { try Gzip.decompress([], limit: 100) }
    }

    /// A bomb: 64 MB of zeros compress to about 64 kB; the bound stops it at 1 MB.
    @Test func decompressionIsBounded() {
        let bomb = Gzip.compress([UInt8](repeating: 0, count: 64 << 20), level: 9)
        #expect(bomb.count < 200_000)
        #expect(throws: Gzip.Failure.tooLarge(limit: 1 << 20)) { try Gzip.decompress(bomb, limit: 1 << 20) }
    }
}
