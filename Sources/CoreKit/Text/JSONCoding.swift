import FoundationEssentials

/// JSON coding shared by every tool: ISO 8601 dates with or without fractional seconds,
/// and decoding errors that name the JSON path (`condition.args[1].op`) instead of
/// Swift's raw `DecodingError` text.
public enum JSONCoding {
    /// The deepest nesting of arrays and objects any tool accepts. Foundation's decoder has
    /// a limit of 512 whose error path crashes (SIGILL) when the limit is reached at the very
    /// end of the input (513 unclosed `[`); every document is measured first and refused
    /// well before Foundation would count that far.
    public static let maximumDepth = 500

    /// The one configured decoder. Private: every decode goes through `decode` or
    /// `decodeThrowingUnderlying`, which check the depth first.
    private static func decoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .custom { decoder in
            let container = try decoder.singleValueContainer()
            let text = try container.decode(String.self)
            guard let date = ISO8601.parse(text) else {
                throw DecodingError.dataCorruptedError(
                    in: container, debugDescription: "expected an ISO 8601 date, found \(Terminal.quote(text))")
            }
            return date
        }
        return decoder
    }

    /// Sorted keys and ISO 8601 UTC dates, so output is stable for scripts and diffs.
    public static func encoder(pretty: Bool = false) -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = pretty ? [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes] : [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(ISO8601.format(date))
        }
        return encoder
    }

    /// Decodes `T`, turning any failure into a one-line `path: problem` message.
    public static func decode<T: Decodable>(_ type: T.Type, from data: Data) throws(JSONDecodeFailure) -> T {
        try checkDepth(data)
        do {
            return try decoder().decode(type, from: data)
        } catch let error as DecodingError {
            throw JSONDecodeFailure(error)
        } catch {
            throw JSONDecodeFailure(path: "", problem: "not valid JSON")
        }
    }

    /// Decodes `T` after the same depth check, but lets errors thrown by `T`'s own `init(from:)`
    /// through unchanged, for types that report their own failures (condition JSON).
    public static func decodeThrowingUnderlying<T: Decodable>(_ type: T.Type, from data: Data) throws -> T {
        try checkDepth(data)
        return try decoder().decode(type, from: data)
    }

    /// Refuses a document nested deeper than `limit` before any parser sees it.
    public static func checkDepth(_ data: Data, limit: Int = maximumDepth) throws(JSONDecodeFailure) {
        if nestingDepth(data) > limit {
            throw JSONDecodeFailure(path: "", problem: "nested deeper than \(limit) levels")
        }
    }

    /// Encodes `value`; DEL, the C1 controls and the bidi controls, which the encoder leaves
    /// raw, are escaped as `\uXXXX` so that `--json` piped to a terminal cannot drive it.
    /// The document still decodes to the same data.
    public static func encode<T: Encodable>(_ value: T, pretty: Bool = false) -> Data {
        do { return escapingInvisibles(try encoder(pretty: pretty).encode(value)) } catch { return Data("null".utf8) }
    }

    /// Rewrites DEL (7F), C1 (C2 80–C2 9F) and what `Terminal.isShownAsCode` shows (the bidi
    /// controls, U+2028/9, U+FEFF, the tag characters) as `\uXXXX`. They can only occur inside strings, where the escape
    /// means the same character.
    public static func escapingInvisibles(_ data: Data) -> Data {
        let bytes = [UInt8](data)
        func escape(_ value: UInt32, into out: inout [UInt8]) {
            let hex = String(value, radix: 16)
            out += Array(("\\u" + String(repeating: "0", count: 4 - hex.count) + hex).utf8)
        }
        // The common case: nothing to escape, no copy.
        guard bytes.contains(where: { $0 == 0x7F || $0 == 0xC2 || $0 == 0xD8 || $0 == 0xE2 || $0 == 0xEF || $0 == 0xF3 }) else { return data }
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count + 16)
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == 0x7F {
                escape(0x7F, into: &out)
                index += 1
            } else if byte == 0xC2, index + 1 < bytes.count, (0x80...0x9F).contains(bytes[index + 1]) {
                escape(UInt32(bytes[index + 1]), into: &out)
                index += 2
            } else if byte == 0xD8, index + 1 < bytes.count, bytes[index + 1] == 0x9C {
                escape(0x061C, into: &out)
                index += 2
            } else if byte == 0xE2 || byte == 0xEF, index + 2 < bytes.count,
                      let scalar = Unicode.Scalar(UInt32(byte & 0x0F) << 12 | UInt32(bytes[index + 1] & 0x3F) << 6 | UInt32(bytes[index + 2] & 0x3F)),
                      bytes[index + 1] & 0xC0 == 0x80, bytes[index + 2] & 0xC0 == 0x80, Terminal.isShownAsCode(scalar) {
                escape(scalar.value, into: &out)
                index += 3
            } else if byte == 0xF3, index + 3 < bytes.count, bytes[index + 1] == 0xA0, (0x80...0x81).contains(bytes[index + 2]),
                      bytes[index + 3] & 0xC0 == 0x80 {
                // A tag character (U+E0000–U+E007F), as JSON writes it: a surrogate pair.
                let value = 0xE0000 | UInt32(bytes[index + 2] & 0x3F) << 6 | UInt32(bytes[index + 3] & 0x3F)
                escape(0xD800 + ((value - 0x10000) >> 10), into: &out)
                escape(0xDC00 + ((value - 0x10000) & 0x3FF), into: &out)
                index += 4
            } else {
                out.append(byte)
                index += 1
            }
        }
        return Data(out)
    }

    /// The deepest nesting of objects and arrays in a JSON document, found in one pass
    /// without parsing. Foundation's decoder rejects deep documents with only "not valid
    /// JSON"; checking first lets a tool say what is wrong.
    public static func nestingDepth(_ data: Data) -> Int {
        // Over the bytes in place: Data's own iterator costs a call for every byte.
        data.withUnsafeBytes { nestingDepth(bytes: $0.bindMemory(to: UInt8.self)) }
    }

    static func nestingDepth(bytes: UnsafeBufferPointer<UInt8>) -> Int {
        var depth = 0
        var deepest = 0
        var inString = false
        var escaped = false
        for byte in bytes {
            if inString {
                if escaped { escaped = false }
                else if byte == UInt8(ascii: "\\") { escaped = true }
                else if byte == UInt8(ascii: "\"") { inString = false }
                continue
            }
            switch byte {
            case UInt8(ascii: "\""): inString = true
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                depth += 1
                deepest = max(deepest, depth)
            case UInt8(ascii: "}"), UInt8(ascii: "]"): depth -= 1
            default: break
            }
        }
        return deepest
    }

    /// `condition.args[1].op` for a coding path.
    public static func pathString(_ path: [any CodingKey]) -> String {
        var result = ""
        for key in path {
            if let index = key.intValue {
                result += "[\(index)]"
            } else if key.stringValue.hasPrefix("Index ") , let index = Int(key.stringValue.dropFirst(6)) {  // character-level: Swift's own ASCII messages
                result += "[\(index)]"
            } else {
                result += result.isEmpty ? key.stringValue : "." + key.stringValue
            }
        }
        return result
    }
}

/// A decoding failure as a user should read it.
public struct JSONDecodeFailure: Error, Sendable, Equatable, CustomStringConvertible {
    public let path: String
    public let problem: String

    public init(path: String, problem: String) {
        self.path = path
        self.problem = problem
    }

    public init(_ error: DecodingError) {
        switch error {
        case .typeMismatch(let type, let context):
            self.init(path: JSONCoding.pathString(context.codingPath),
                      problem: "expected \(Self.describe(type))\(Self.found(context))")
        case .valueNotFound(let type, let context):
            self.init(path: JSONCoding.pathString(context.codingPath), problem: "expected \(Self.describe(type)), found null")
        case .keyNotFound(let key, let context):
            self.init(path: JSONCoding.pathString(context.codingPath + [key]), problem: "missing")
        case .dataCorrupted(let context) where context.codingPath.isEmpty:
            // Foundation's only word for a syntax error anywhere in the document.
            self.init(path: "", problem: "not valid JSON")
        case .dataCorrupted(let context):
            let underlying = context.underlyingError.map { _ in "not valid JSON" }
            let problem = underlying ?? (context.debugDescription.isEmpty ? "invalid value" : context.debugDescription)
            self.init(path: JSONCoding.pathString(context.codingPath), problem: Self.plain(problem))
        @unknown default:
            self.init(path: "", problem: "invalid JSON")
        }
    }

    public var description: String { path.isEmpty ? problem : "\(path): \(problem)" }

    static func describe(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: return "a string"
        case is Int.Type, is Int64.Type, is Int32.Type, is UInt.Type: return "an integer"
        case is Double.Type, is Float.Type: return "a number"
        case is Bool.Type: return "true or false"
        case is Date.Type: return "an ISO 8601 date"
        default:
            let name = String(describing: type)
            if name.hasPrefix("Array") { return "an array" }  // character-level: Swift's own ASCII messages
            if name.hasPrefix("Dictionary") { return "an object" }  // character-level: Swift's own ASCII messages
            return "an object"
        }
    }

    /// Swift's messages say "Expected to decode X but found a string instead."; keep just what was found.
    static func found(_ context: DecodingError.Context) -> String {
        let text = context.debugDescription
        guard let range = text.firstRange(of: "but found ") else { return "" }  // character-level: Swift's own ASCII messages
        var rest = text[range.upperBound...]
        if rest.hasSuffix(" instead.") { rest = rest.dropLast(9) }  // character-level: Swift's own ASCII messages
        return ", found " + rest
    }

    static func plain(_ text: String) -> String {
        let trimmed = text.hasSuffix(".") ? String(text.dropLast()) : text  // character-level: Swift's own ASCII messages
        guard let first = trimmed.first else { return trimmed }
        return first.lowercased() + trimmed.dropFirst()
    }
}
