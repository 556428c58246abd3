import Glibc
import Testing
import TestSupport
@testable import CoreKit

/// Inflating beside the caller (`Gzip.decompressAside`) gives what inflating in line gives:
/// the same bytes in the same order, on the caller's thread, and the same failure after the
/// same bytes.
@Suite struct GzipAsideTests {
    /// Three megabytes of seeded text and noise: many pieces, more than `ahead` at once.
    static let original: [UInt8] = {
        var generator = SeededGenerator(seed: 7_331)
        var bytes: [UInt8] = []
        while bytes.count < 3 << 20 {
            if Bool.random(using: &generator) {
                bytes += Array("<item><title>entry \(bytes.count)</title></item>\n".utf8)
            } else {
                bytes += (0..<Int.random(in: 1...300, using: &generator)).map { _ in UInt8.random(in: 0...255, using: &generator) }
            }
        }
        return bytes
    }()

    static func inflated(_ input: [UInt8], limit: Int, aside: Bool) -> (bytes: [UInt8], failure: Gzip.Failure?, threads: Set<UInt>) {
        var bytes: [UInt8] = []
        var threads = Set<UInt>()
        var failure: Gzip.Failure?
        input.withUnsafeBytes { raw in
            let consume: (UnsafeBufferPointer<UInt8>) -> Void = { piece in
                bytes += piece
                threads.insert(UInt(pthread_self()))
            }
            do throws(Gzip.Failure) {
                let count = aside ? try Gzip.decompressAside(raw, limit: limit, ahead: 2, consume: consume)
                    : try Gzip.decompress(raw, limit: limit, consume: consume)
                #expect(count == bytes.count)
            } catch { failure = error }
        }
        return (bytes, failure, threads)
    }

    @Test func theSameBytesInOrderOnTheCallersThread() {
        let result = Self.inflated(Gzip.compress(Self.original), limit: 8 << 20, aside: true)
        #expect(result.failure == nil)
        #expect(result.bytes == Self.original)
        #expect(result.threads == [UInt(pthread_self())])
    }

    @Test func aFailureComesAfterTheSameBytesAsInLine() {
        var damaged = Gzip.compress(Self.original)
        damaged[damaged.count / 2] ^= 0x5A
        let inLine = Self.inflated(damaged, limit: 8 << 20, aside: false)
        let aside = Self.inflated(damaged, limit: 8 << 20, aside: true)
        #expect(inLine.failure != nil)
        #expect(aside.failure == inLine.failure)
        #expect(aside.bytes == inLine.bytes)

        let bounded = Self.inflated(Gzip.compress(Self.original), limit: 1 << 20, aside: true)
        #expect(bounded.failure == .tooLarge(limit: 1 << 20))
        #expect(bounded.bytes.count <= 1 << 20)
    }
}
