import FoundationEssentials
import ToolboxKit

/// `read --json`: the post as `{"body": …, "id": …, "metadata": …}`, exactly as the JSON
/// encoder writes it (sorted keys, indented), with the body's string streamed from the cache
/// a piece at a time, escaped as the encoder escapes it: a body of any size, in bounded memory.
public enum PostJSON {
    public static func write(_ metadata: PostMetadata, body: PostBody, to sink: ([UInt8]) -> Void = { StandardOutput.write(bytes: $0) }) {
        // The document with an empty body; the body's string goes between its quotes.
        let shell = Array(JSONCoding.encode(Post(id: metadata.postId, metadata: metadata, body: ""), pretty: true))
        let marker = Array("\"body\" : \"\"".utf8)
        guard let at = shell.firstRange(of: marker) else { return sink(shell + [0x0A]) }
        sink(Array(shell[..<(at.upperBound - 1)]))
        var pending: [UInt8] = []
        body.stream { piece in
            pending.append(contentsOf: piece)
            let cut = UTF8Cut.completePrefix(pending)
            sink(escaped(pending[..<cut]))
            pending.removeFirst(cut)
        }
        if !pending.isEmpty { sink(escaped(pending[...])) }
        sink(Array(shell[(at.upperBound - 1)...]) + [0x0A])
    }

    /// The inside of a JSON string for `bytes` (whole UTF-8 sequences; invalid ones become
    /// U+FFFD, as a String would hold them): what the encoder writes, then what
    /// `JSONCoding` escapes beyond it (DEL, C1 and the invisible controls).
    static func escaped(_ bytes: ArraySlice<UInt8>) -> [UInt8] {
        escaped(String(decoding: bytes, as: UTF8.self))
    }

    /// The inside of a JSON string for `text`, as the encoder and `JSONCoding` write it.
    static func escaped(_ text: String) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count + 16)
        for byte in text.utf8 {
            switch byte {
            case 0x22: out += [0x5C, 0x22]
            case 0x5C: out += [0x5C, 0x5C]
            case 0x0A: out += [0x5C, UInt8(ascii: "n")]
            case 0x0D: out += [0x5C, UInt8(ascii: "r")]
            case 0x09: out += [0x5C, UInt8(ascii: "t")]
            case 0x08: out += [0x5C, UInt8(ascii: "b")]
            case 0x0C: out += [0x5C, UInt8(ascii: "f")]
            case 0x00..<0x20:
                let hex = Array(String(byte, radix: 16).utf8)
                out += Array("\\u00".utf8) + (hex.count == 1 ? [0x30] : []) + hex
            default: out.append(byte)
            }
        }
        // Only text past ASCII can hold what `escapingInvisibles` rewrites (DEL aside).
        guard out.contains(where: { $0 >= 0x7F }) else { return out }
        return Array(JSONCoding.escapingInvisibles(Data(out)))
    }
}
