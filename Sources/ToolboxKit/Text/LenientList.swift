/// A JSON array decoded record by record: a record that does not decode is left out and
/// reported with its index and the JSON path of the problem; the others are kept. One broken
/// record from a server does not sink the list. Anything but an array still fails whole.
public struct LenientList<Element: Decodable>: Decodable {
    public struct Skipped: Sendable, Equatable, CustomStringConvertible {
        public let index: Int
        public let problem: JSONDecodeFailure
        /// `record 3: [3].publishDate: expected an ISO 8601 date, found "soon"`
        public var description: String { "record \(index): \(problem.description)" }
    }

    public private(set) var records: [Element] = []
    public private(set) var skipped: [Skipped] = []

    public init(from decoder: any Decoder) throws {
        var container = try decoder.unkeyedContainer()
        var index = 0
        while !container.isAtEnd {
            switch try container.decode(Attempt.self).result {
            case .success(let record): records.append(record)
            case .failure(let problem): skipped.append(Skipped(index: index, problem: problem))
            }
            index += 1
        }
    }

    /// One record, decoded or not; decoding this never fails, so the array goes on.
    struct Attempt: Decodable {
        let result: Result<Element, JSONDecodeFailure>

        init(from decoder: any Decoder) throws {
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
