import FoundationEssentials
import ToolboxKit

/// Where a condition comes from: the server, a file (`-` is stdin) or a text expression.
public enum ConditionSource: Sendable, Equatable {
    case server(id: String)
    case file(path: String)
    case expression(String)
}

/// Loads and validates a condition from its source, with errors a user can act on:
/// ill-formed conditions are `badData` (65) with the JSON path or column; a server answer
/// that is not JSON is `protocolViolation` (76); an unknown id that starts no id either is
/// `missing` (66), with the nearest ids; one that starts several is a usage error (64).
public enum ConditionLoader {
    public static let maximumFileSize = 64 << 20

    public static func load(_ source: ConditionSource, client: APIClient?) async throws(ToolError) -> ConditionRecord {
        switch source {
        case .expression(let text):
            do {
                return try ConditionRecord(name: "-e", id: "", condition: TextSyntax.parse(text))
            } catch {
                throw .badData("-e: \(error)")
            }
        case .file(let path):
            let data = try readFile(path)
            do {
                return try ConditionJSON.decodeRecordOrCondition(data, fallbackName: path == "-" ? "stdin" : path)
            } catch {
                throw .badData("\(path == "-" ? "stdin" : path): \(error)")
            }
        case .server(let id):
            guard let client else { throw .bug("no client for a server condition") }
            let id = try ResourceID.validate(id, kind: "condition id")
            let path = "/conditions/" + ResourceID.pathSegment(id)
            let response = try await client.send(.GET, path, headers: [("Accept", "application/json")])
            if response.status == 404, id.utf8.count < 64 {
                // Not an id: perhaps the start of one, as git takes a short hash.
                let ids = try await list(client: client).map(\.id)
                return try await load(.server(id: try IDPrefix.resolve(id, among: ids)), client: client)
            }
            try client.check(response, path: path, notFound: "condition \(id)")
            do {
                return try ConditionJSON.decode(ConditionRecord.self, from: response.data)
            } catch where error.isMalformedJSON {
                throw .protocolViolation(url: client.server.url(path), detail: error.problem)
            } catch {
                throw .badData("condition \(id): \(error)")
            }
        }
    }

    /// `GET /conditions`.
    public static func list(client: APIClient, warn: (String) -> Void = { _ in }) async throws(ToolError) -> [ConditionSummary] {
        let list = try await client.getList("/conditions", as: ConditionSummary.self)
        for skipped in list.skipped { warn("skipped condition \(skipped)") }
        return list.records
    }

    /// A condition file (`-` is stdin) in either syntax, as `condtest fmt` reads it: JSON (a
    /// record or a bare condition) when its first non-blank byte is `{`, text otherwise.
    public static func loadEitherSyntax(_ path: String) throws(ToolError) -> (condition: Condition, isJSON: Bool) {
        let data = try readFile(path)
        let isJSON = data.first(where: { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }) == UInt8(ascii: "{")
        let name = path == "-" ? "stdin" : path
        do {
            if isJSON {
                return (try ConditionJSON.decodeRecordOrCondition(data, fallbackName: name).condition, true)
            }
            guard let text = String(validating: data, as: UTF8.self) else { throw ToolError.badData("\(name): not valid UTF-8") }
            return (try TextSyntax.parse(text), false)
        } catch let error as ToolError {
            throw error
        } catch {
            throw .badData("\(name): \(error)")
        }
    }

    /// Reads a whole file, or stdin for `-`, up to `maximumFileSize`.
    public static func readFile(_ path: String) throws(ToolError) -> Data {
        Data(try LocalFile.read(path, limit: maximumFileSize))
    }
}
