import FoundationEssentials
import CoreKit

/// A file an entry carries for download (a podcast's episode, a video, a PDF): RSS's
/// `enclosure`, Atom's `rel="enclosure"` link, Media RSS's `media:content`, JSON Feed's
/// `attachments`. `length` and `duration` only when the feed says them and they read as
/// numbers (feeds often write `length="0"`).
public struct Enclosure: Codable, Sendable, Equatable {
    /// Absolute, http or https.
    public var url: String
    /// The media type as the feed says it (`audio/mpeg`), when it says one.
    public var type: String?
    /// In bytes.
    public var length: Int64?
    /// In seconds.
    public var duration: Int?

    public init(url: String, type: String? = nil, length: Int64? = nil, duration: Int? = nil) {
        self.url = url
        self.type = type
        self.length = length
        self.duration = duration
    }

    /// The most an entry keeps: a hostile feed's entry of a million enclosures holds 64.
    static let mostPerEntry = 64

    /// A feed's `type`: trimmed, at most a media type's length, else none.
    static func type(_ text: String?) -> String? {
        guard let text = text.map({ $0.trimmingSpaces() }), !text.isEmpty, text.utf8.count <= 255 else { return nil }
        return text
    }

    /// A byte count as feeds write it: digits alone, more than zero.
    static func length(_ text: String?) -> Int64? {
        guard let text = text.map({ $0.trimmingSpaces() }), let value = Int64(text), value > 0 else { return nil }
        return value
    }

    /// A duration as feeds write it: seconds (`3725`, `3725.4`), or `MM:SS` or `HH:MM:SS`
    /// as iTunes's tags do (`1:02:05`, `62:05`); nil for anything else.
    static func seconds(_ text: String?) -> Int? {
        guard let text = text.map({ $0.trimmingSpaces() }), !text.isEmpty, text.utf8.count <= 32 else { return nil }
        let parts = text.utf8.split(separator: UInt8(ascii: ":"), omittingEmptySubsequences: false)
        guard parts.count <= 3 else { return nil }
        var total = 0.0
        for (index, part) in parts.enumerated() {
            // Digits, and a fraction in the last part alone.
            let isNumber = !part.isEmpty && part.allSatisfy { (0x30...0x39).contains($0) || $0 == UInt8(ascii: ".") }
            guard isNumber, let value = Double(String(decoding: part, as: UTF8.self)),
                  index == parts.count - 1 || !part.contains(UInt8(ascii: ".")) else { return nil }
            if index > 0, value >= 60 { return nil }
            total = total * 60 + value
        }
        guard total > 0, total < Double(Int32.max) else { return nil }
        return Int(total.rounded())
    }

    /// `1:02:05`, `4:07`: a duration as players show it.
    public static func clock(_ seconds: Int) -> String {
        let hours = seconds / 3600, minutes = seconds / 60 % 60, rest = seconds % 60
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return hours > 0 ? "\(hours):\(two(minutes)):\(two(rest))" : "\(minutes):\(two(rest))"
    }

    /// `URL (audio/mpeg, 24.1 MB, 1:02:05)`, as `read` and `show` give it, sanitised.
    public var described: String {
        let details = self.details
        return Terminal.sanitizeField(url) + (details.isEmpty ? "" : " (" + details + ")")
    }

    /// What the line of an enclosure says after its URL: `audio/mpeg, 24.1 MB, 1:02:05`.
    public var details: String {
        [type.map(Terminal.sanitizeField), length.map(ProgressDisplay.bytes), duration.map(Self.clock)]
            .compactMap { $0 }.joined(separator: ", ")
    }
}
