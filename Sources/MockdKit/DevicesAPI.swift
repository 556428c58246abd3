import Foundation
import Hummingbird
import NIOCore
import Synchronization
import ToolboxKit

/// The devices API of the installation app, held in memory and seeded from
/// `data/devices/devices.json`: `GET /devices` (as `text/json`, like the original) and
/// `PATCH /devices/:id` with the fields to change. The original server was slow and flaky:
/// every request waits 1–3 s and 1 in 10 answers 500.
public final class DevicesAPI: MockAPI {
    public let name = "devices"
    public let defaultFaults = FaultProfile(latency: LatencyRange(1000, 3000), failureRate: 0.1)

    static let types: Set<String> = ["warm_water", "cold_water", "heating"]
    static let fields: Set<String> = ["id", "installationDate", "meterPointDescription", "type"]

    /// One device as the server holds it; `installationDate` absent and null are both kept
    /// as the seed had them.
    struct Device: Sendable {
        var id: String
        var type: String
        var meterPointDescription: String
        var installationDate: String?
        var dateAbsent: Bool

        var json: [String: Any] {
            var object: [String: Any] = ["id": id, "type": type, "meterPointDescription": meterPointDescription]
            if !dateAbsent { object["installationDate"] = installationDate ?? NSNull() }
            return object
        }
    }

    private let devices: Mutex<[Device]>

    /// Loads the seed and adds `generated` devices named `GEN-NNNNNN-00`.
    public init(file: String, generated: Int = 0) throws {
        let data = try Data(contentsOf: URL(fileURLWithPath: file))
        do { try JSONCoding.checkDepth(data) } catch { throw MockdDataError(path: file, problem: error.description) }
        guard let list = try JSONSerialization.jsonObject(with: data) as? [[String: Any]] else {
            throw MockdDataError(path: file, problem: "not a JSON array of devices")
        }
        var devices: [Device] = []
        var ids = Set<String>()
        for (index, object) in list.enumerated() {
            if let problem = Self.problem(in: object, creating: true) {
                throw MockdDataError(path: file, problem: "device \(index): \(problem)")
            }
            let device = Device(id: object["id"] as! String, type: object["type"] as! String,
                                meterPointDescription: object["meterPointDescription"] as! String,
                                installationDate: object["installationDate"] as? String,
                                dateAbsent: object["installationDate"] == nil)
            guard ids.insert(device.id).inserted else { throw MockdDataError(path: file, problem: "duplicate id \(device.id)") }
            devices.append(device)
        }
        let types = ["warm_water", "cold_water", "heating"]
        for number in 0..<max(0, generated) {
            let digits = String(number + 1)
            let id = "GEN-" + String(repeating: "0", count: max(0, 6 - digits.count)) + digits + "-00"
            devices.append(Device(id: id, type: types[number % 3], meterPointDescription: "Generated \(number + 1)",
                                  installationDate: nil, dateAbsent: false))
        }
        self.devices = Mutex(devices)
    }

    public func register(on router: Router<BasicRequestContext>, faults: FaultMiddleware<BasicRequestContext>) {
        let group = router.group("/devices").add(middleware: faults)
        group.get { _, _ in
            let list = self.devices.withLock { $0.map(\.json) }
            let data = (try? JSONSerialization.data(withJSONObject: list, options: [.sortedKeys])) ?? Data("[]".utf8)
            return Response.json(Array(data), contentType: "text/json")
        }
        group.patch(":id") { request, context in
            let id = context.parameters.decoded("id")
            let body = try await request.body.collect(upTo: 1 << 20)
            return self.patch(id: id, body: Data(buffer: body))
        }
    }

    /// Validates every present field first; writes nothing unless all are valid.
    func patch(id: String, body: Data) -> Response {
        // A client's body is measured before Foundation parses it (see JSONCoding.maximumDepth).
        do { try JSONCoding.checkDepth(body) } catch { return Self.badRequest(error.description) }
        guard let object = (try? JSONSerialization.jsonObject(with: body, options: [.fragmentsAllowed])) as? [String: Any] else {
            return Self.badRequest("the body must be a JSON object")
        }
        if let problem = Self.problem(in: object, creating: false) { return Self.badRequest(problem) }
        return devices.withLock { devices in
            guard let index = devices.firstIndex(where: { $0.id == id }) else {
                return Self.badRequest("unknown device \(id)")
            }
            if let newID = object["id"] as? String, newID != id, devices.contains(where: { $0.id == newID }) {
                return Self.badRequest("id \(newID) is taken by another device")
            }
            var device = devices[index]
            if let value = object["id"] as? String { device.id = value }
            if let value = object["type"] as? String { device.type = value }
            if let value = object["meterPointDescription"] as? String { device.meterPointDescription = value }
            if object.keys.contains("installationDate") {
                device.installationDate = object["installationDate"] as? String
                device.dateAbsent = false
            }
            devices[index] = device
            return Response(status: .ok)
        }
    }

    /// The first problem with a device object's fields, or nil. `creating` requires every field.
    static func problem(in object: [String: Any], creating: Bool) -> String? {
        for key in object.keys.sorted() where !fields.contains(key) { return "unknown field \"\(key)\"" }
        if creating {
            for key in ["id", "meterPointDescription", "type"] where object[key] == nil { return "missing field \"\(key)\"" }
        }
        if let value = object["id"], (value as? String)?.isEmpty != false { return "id must be a non-empty string" }
        if let value = object["meterPointDescription"], (value as? String)?.isEmpty != false {
            return "meterPointDescription must be a non-empty string"
        }
        if let value = object["type"], !types.contains(value as? String ?? "") {
            return "type must be warm_water, cold_water or heating"
        }
        if let value = object["installationDate"], !(value is NSNull) {
            guard let text = value as? String, ISO8601.parse(text) != nil else {
                return "installationDate must be an ISO 8601 date or null"
            }
        }
        return nil
    }

    static func badRequest(_ message: String) -> Response {
        Response.text("Bad Request: \(message)", status: .badRequest)
    }
}
