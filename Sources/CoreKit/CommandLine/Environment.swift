#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The process environment as a dictionary, read without Foundation's ProcessInfo. Read once:
/// the toolbox never changes its own environment, and a refresh of many feeds asked for it
/// for each feed.
public enum Environment {
    public static var current: [String: String] { snapshot }

    private static let snapshot: [String: String] = {
        var result: [String: String] = [:]
        var pointer = environ
        while let entry = pointer.pointee {
            let pair = UnsafeBufferPointer(start: UnsafeRawPointer(entry).assumingMemoryBound(to: UInt8.self), count: strlen(entry))
            if let equals = pair.firstIndex(of: UInt8(ascii: "=")) {
                result[String(decoding: pair[..<equals], as: UTF8.self)] = String(decoding: pair[(equals + 1)...], as: UTF8.self)
            }
            pointer += 1
        }
        return result
    }()
}
