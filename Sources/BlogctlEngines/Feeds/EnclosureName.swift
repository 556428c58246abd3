#if canImport(Glibc)
import Glibc
#endif
import CoreKit

/// The name a downloaded file gets in the download folder: the last segment of its URL's
/// path, percent-decoded, made safe. A name never leaves the folder (no `/`, never `.` or
/// `..`), never hides (no leading dot), holds no control character, and fits a file
/// system's 255 bytes with room for a number and `.part`.
public enum EnclosureName {
    /// The longest name, in bytes: 255 less ` (99999)` and `.part`.
    static let longest = 240

    public static func name(for url: String) -> String {
        let path = url.utf8.split(separator: UInt8(ascii: "?"), maxSplits: 1, omittingEmptySubsequences: false).first
            .map { $0.split(separator: UInt8(ascii: "#"), maxSplits: 1, omittingEmptySubsequences: false).first ?? $0 } ?? Substring(url).utf8[...]
        let afterHost = Array(path).split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: true).dropFirst(2)
        let segment = afterHost.last.map { percentDecoded(Array($0)) } ?? []
        let plain = segment.filter { $0 >= 0x20 && $0 != 0x7F && $0 != UInt8(ascii: "/") && $0 != UInt8(ascii: "\\") }
        // The name as valid UTF-8, controls of every kind out (C1, bidi overrides, zero width),
        // no leading dot or space, no trailing space.
        var bytes = Array(Terminal.sanitizeField(String(decoding: plain, as: UTF8.self)).utf8)
        let start = bytes.firstIndex { $0 != UInt8(ascii: ".") && $0 != UInt8(ascii: " ") } ?? bytes.count
        let end = (bytes.lastIndex { $0 != UInt8(ascii: " ") } ?? -1) + 1
        bytes = start < end ? Array(bytes[start..<end]) : []
        if bytes.count > longest {
            // Kept whole to the last character that fits, the extension kept when it is short.
            let dot = bytes.lastIndex(of: UInt8(ascii: "."))
            let suffix = dot.map { Array(bytes[$0...]) }.flatMap { $0.count <= 16 ? $0 : nil } ?? []
            let cut = UTF8Cut.completePrefix(Array(bytes.prefix(longest - suffix.count)))
            bytes = Array(bytes.prefix(cut)) + suffix
        }
        let made = String(decoding: bytes, as: UTF8.self)
        return made.isEmpty ? "enclosure" : made
    }

    /// `name` with ` (N)` before its extension: `episode (2).mp3`.
    public static func numbered(_ name: String, _ number: Int) -> String {
        let bytes = Array(name.utf8)
        guard let dot = bytes.lastIndex(of: UInt8(ascii: ".")), dot > 0 else { return name + " (\(number))" }
        return String(decoding: bytes[..<dot], as: UTF8.self) + " (\(number))" + String(decoding: bytes[dot...], as: UTF8.self)
    }

    /// Whether anything is at `path`, a dangling symbolic link included: a path taken.
    public static func taken(_ path: String) -> Bool {
        var status = stat()
        return lstat(path, &status) == 0
    }

    private static func percentDecoded(_ bytes: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        var index = 0
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: "%"), index + 2 < bytes.count,
               let value = UInt8(String(decoding: bytes[(index + 1)...(index + 2)], as: UTF8.self), radix: 16) {
                out.append(value)
                index += 3
            } else {
                out.append(bytes[index])
                index += 1
            }
        }
        return out
    }
}
