import Synchronization

/// A key or click, decoded from a terminal's raw input.
public enum Key: Sendable, Equatable {
    case digit(Int)
    case enter
    case up, down, left, right
    case backspace
    case escape
    case quit
    /// Ctrl-C: quits too, with the status every tool gives an interrupt (130).
    case interrupt
    /// A left-button press at a 1-based screen position (xterm SGR mouse reporting).
    case click(row: Int, column: Int)
}

/// Turns raw terminal bytes into keys: digits, Enter, arrows (CSI and SS3 forms),
/// Backspace, Esc, q and Ctrl-C, and SGR mouse presses. An escape sequence split across
/// reads is completed by the next read; a lone ESC at the end of a read is the Esc key.
public struct KeyDecoder: Sendable {
    private var pending: [UInt8] = []

    public init() {}

    public mutating func decode(_ bytes: some Sequence<UInt8>) -> [Key] {
        pending.append(contentsOf: bytes)
        var keys: [Key] = []
        var index = 0
        while index < pending.count {
            let byte = pending[index]
            if byte == 0x1B {
                guard index + 1 < pending.count else {
                    keys.append(.escape)
                    index += 1
                    continue
                }
                guard let (key, length) = Self.sequence(pending, from: index) else {
                    // Incomplete: wait for the rest, unless it is hopelessly long.
                    if pending.count - index > 32 { index = pending.count }
                    break
                }
                if let key { keys.append(key) }
                index += length
                continue
            }
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): keys.append(.digit(Int(byte - UInt8(ascii: "0"))))
            case 0x0D, 0x0A: keys.append(.enter)
            case 0x7F, 0x08: keys.append(.backspace)
            case UInt8(ascii: "q"), UInt8(ascii: "Q"), 0x04: keys.append(.quit)
            case 0x03: keys.append(.interrupt)
            default: break
            }
            index += 1
        }
        pending.removeFirst(min(index, pending.count))
        return keys
    }

    /// The key an escape sequence at `start` stands for (nil key: a sequence we ignore) and
    /// its length; nil when the sequence is not complete yet.
    static func sequence(_ bytes: [UInt8], from start: Int) -> (Key?, Int)? {
        let introducer = bytes[start + 1]
        if introducer == UInt8(ascii: "O") {
            guard start + 2 < bytes.count else { return nil }
            return (arrow(bytes[start + 2]), 3)
        }
        guard introducer == UInt8(ascii: "[") else { return (.escape, 1) }
        var end = start + 2
        while end < bytes.count, !(0x40...0x7E).contains(bytes[end]) { end += 1 }
        guard end < bytes.count else { return nil }
        let final = bytes[end]
        let length = end - start + 1
        let parameters = bytes[(start + 2)..<end]
        if parameters.first == UInt8(ascii: "<") {
            let numbers = parameters.dropFirst().split(separator: UInt8(ascii: ";")).map {
                Int(String(decoding: $0, as: UTF8.self)) ?? -1
            }
            guard numbers.count == 3, final == UInt8(ascii: "M"), numbers[0] == 0 else { return (nil, length) }
            return (.click(row: numbers[2], column: numbers[1]), length)
        }
        return (arrow(final), length)
    }

    static func arrow(_ byte: UInt8) -> Key? {
        switch byte {
        case UInt8(ascii: "A"): return .up
        case UInt8(ascii: "B"): return .down
        case UInt8(ascii: "C"): return .right
        case UInt8(ascii: "D"): return .left
        default: return nil
        }
    }
}

/// A `KeyDecoder` that the input thread can own behind a lock (it is the only user, so the
/// lock is never contended).
public final class SharedKeyDecoder: Sendable {
    private let decoder = Mutex(KeyDecoder())

    public init() {}

    public func decode(_ bytes: [UInt8]) -> [Key] {
        decoder.withLock { $0.decode(bytes) }
    }
}
