/// A JSON array decoded record by record: a record that does not decode is left out and
/// reported with its index and the JSON path of the problem; the others are kept. One broken
/// record from a server does not sink the list. Anything but an array still fails whole.
public struct LenientList<Element: Decodable>: Decodable {
    public struct Skipped: Sendable, Equatable, CustomStringConvertible {
        public let index: Int
        public let problem: JSONDecodeFailure
        /// The record's own id (`id` or `_id`), when it has one that reads as text.
        public var id: String? = nil

        public init(index: Int, problem: JSONDecodeFailure, id: String? = nil) {
            self.index = index
            self.problem = problem
            self.id = id
        }
        /// `"broken" (record 3): [3].publishDate: expected an ISO 8601 date, found "soon"`:
        /// named by its id, as the list names it, and its place; quoted and cut, as any server value.
        public var description: String {
            (id.map { Terminal.quote($0) + " (record \(index))" } ?? "record \(index)") + ": " + problem.description
        }
    }

    public private(set) var records: [Element] = []
    public private(set) var skipped: [Skipped] = []

    /// A list read by other means (`JSONScanner`), as the decoder would have read it.
    public init(records: [Element], skipped: [Skipped]) {
        self.records = records
        self.skipped = skipped
    }

    public init(from decoder: any Decoder) throws {
        var container = try decoder.unkeyedContainer()
        var index = 0
        while !container.isAtEnd {
            let attempt = try container.decode(Attempt.self)
            switch attempt.result {
            case .success(let record as any IdentifiedRecord) where record.recordIDs.contains(where: { ResourceID.problem($0.value) != nil }):
                // The one id rule, for every list of every tool: an id that cannot be
                // represented skips its record, named, as a record that does not decode.
                let (key, value) = record.recordIDs.first { ResourceID.problem($0.value) != nil }!
                skipped.append(Skipped(index: index, problem: JSONDecodeFailure(path: "[\(index)].\(key)", problem: "unusable id: " + ResourceID.problem(value)!), id: value))
            case .success(let record): records.append(record)
            case .failure(let problem): skipped.append(Skipped(index: index, problem: problem, id: attempt.id))
            }
            index += 1
        }
    }

    /// One record, decoded or not; decoding this never fails, so the array goes on.
    struct Attempt: Decodable {
        let result: Result<Element, JSONDecodeFailure>
        /// For a record that failed: its id, read on its own.
        var id: String?

        /// Just a record's id, under either name the APIs use.
        struct IDProbe: Decodable {
            let id: String?
            enum CodingKeys: String, CodingKey { case id, _id }
            init(from decoder: any Decoder) throws {
                let container = try decoder.container(keyedBy: CodingKeys.self)
                id = (try? container.decode(String.self, forKey: .id)) ?? (try? container.decode(String.self, forKey: ._id))
            }
        }

        init(from decoder: any Decoder) throws {
            defer { if case .failure = result { id = (try? IDProbe(from: decoder))?.id ?? nil } }
            do {
                result = .success(try Element(from: decoder))
            } catch let error as DecodingError {
                result = .failure(JSONDecodeFailure(error))
            } catch let error as JSONDecodeFailure {
                result = .failure(error)
            } catch {
                result = .failure(JSONDecodeFailure(path: JSONCoding.pathString(decoder.codingPath), problem: "invalid record"))
            }
        }
    }
}

/// A record whose ids go into URLs, file names and stores: `LenientList` skips one whose id
/// the one id rule (`ResourceID.problem`) refuses.
public protocol IdentifiedRecord {
    /// Each id with the JSON key it came under (`_id`, `postId`).
    var recordIDs: KeyValuePairs<String, String> { get }
}
