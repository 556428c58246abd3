import FoundationEssentials
import Hummingbird
import ToolboxKit

/// The conditions API, served from `data/conditions/*.json`, one record per file:
/// `GET /conditions` lists `{"name", "_id"}` in file-name order; `GET /conditions/:id`
/// answers the file's bytes as they are, so clients are tested against both encodings.
/// The original server had no delay and no faults.
public struct ConditionsAPI: MockAPI {
    public let name = "conditions"
    public let defaultFaults = FaultProfile.none

    struct Summary: Codable { let name: String; let _id: String }

    let summaries: [Summary]
    let listing: [UInt8]
    let records: [String: [UInt8]]

    /// Loads every `*.json` file in `directory`, then adds `generated` records (seeded, see
    /// `GeneratedConditions`); a file that is not a record with a name and an id is an error
    /// naming the file.
    public init(directory: String, generated: Int = 0, seed: UInt64 = 1) throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: directory)
            .filter { $0.hasSuffix(".json") }.sorted()
        var summaries: [Summary] = []
        var records: [String: [UInt8]] = [:]
        for file in files {
            let path = directory + "/" + file
            let data = try Data(contentsOf: URL(fileURLWithPath: path))
            guard let summary = try? JSONCoding.decode(Summary.self, from: data) else {
                throw MockdDataError(path: path, problem: "not a condition record with \"name\" and \"_id\"")
            }
            guard records[summary._id] == nil else {
                throw MockdDataError(path: path, problem: "duplicate _id \(summary._id)")
            }
            summaries.append(summary)
            records[summary._id] = Array(data)
        }
        for record in GeneratedConditions.records(count: generated, seed: seed) {
            summaries.append(Summary(name: record.name, _id: record._id))
            records[record._id] = Array(JSONCoding.encode(record))
        }
        self.summaries = summaries
        self.records = records
        self.listing = Array(try JSONEncoder().encode(summaries))
    }

    public func register(on router: Router<BasicRequestContext>, faults: FaultMiddleware<BasicRequestContext>) {
        let group = router.group("/conditions").add(middleware: faults)
        group.get { _, _ in Response.json(listing) }
        group.get(":id") { _, context in
            let id = context.parameters.decoded("id")
            guard let record = records[id] else {
                return Response.jsonError("no condition with id \(id)", status: .notFound)
            }
            return Response.json(record)
        }
    }
}
