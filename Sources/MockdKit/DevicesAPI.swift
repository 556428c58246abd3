import FoundationEssentials
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
    struct Device: Sendable, Encodable {
        var id: String
        var type: String
        var meterPointDescription: String
        var installationDate: String?
        var dateAbsent: Bool

        enum CodingKeys: String, CodingKey { case id, type, meterPointDescription, installationDate }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(id, forKey: .id)
            try container.encode(type, forKey: .type)
            try container.encode(meterPointDescription, forKey: .meterPointDescription)
            if !dateAbsent { try container.encode(installationDate, forKey: .installationDate) }
        }
    }

    private let devices: Mutex<[Device]>
    /// `--devices-drift`: the share of installation dates another client changes before each
    /// `GET /devices`, drawn from `drift`'s generator (seeded by `--seed`).
    private let driftShare: Double
    private let drift: Mutex<SeededGenerator>

    /// Loads the seed and adds `generated` devices named `GEN-NNNNNN-00`.
    public init(file: String, generated: Int = 0, drift: Double = 0, seed: UInt64 = 1) throws {
        driftShare = min(max(drift, 0), 1)
        self.drift = Mutex(SeededGenerator(seed: seed ^ 0xD71F))
        let data = try Data(contentsOf: URL(fileURLWithPath: file))
        let list: [DeviceFields]
        do { list = try JSONCoding.decode([DeviceFields].self, from: data) } catch {
            throw MockdDataError(path: file, problem: "not a JSON array of device objects: \(error.description)")
        }
        var devices: [Device] = []
        var ids = Set<String>()
        for (index, object) in list.enumerated() {
            if let problem = Self.problem(in: object, creating: true) {
                throw MockdDataError(path: file, problem: "device \(index): \(problem)")
            }
            let device = Device(id: object.string("id") ?? "", type: object.string("type") ?? "",
                                meterPointDescription: object.string("meterPointDescription") ?? "",
                                installationDate: object.string("installationDate"),
                                dateAbsent: object.values["installationDate"] == nil)
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
            self.driftDates()
            let list = self.devices.withLock { $0 }
            return Response.json(Array(JSONCoding.encode(list)), contentType: "text/json")
        }
        group.patch(":id") { request, context in
            let id = context.parameters.decoded("id")
            let body = try await request.body.collect(upTo: 1 << 20)
            return self.patch(id: id, body: Data(buffer: body))
        }
    }

    /// As if another client had PATCHed a share of the devices: each date, with probability
    /// `driftShare`, becomes another day of 2024 at 08:00 UTC, or none.
    func driftDates() {
        guard driftShare > 0 else { return }
        drift.withLock { generator in
            devices.withLock { devices in
                for index in devices.indices where generator.unit() < driftShare {
                    let day = Int(generator.next() % 366)
                    devices[index].installationDate = day == 0 ? nil
                        : ISO8601.format(Date(timeIntervalSince1970: 1_704_096_000 + Double(day) * 86_400))
                    devices[index].dateAbsent = false
                }
            }
        }
    }

    /// Validates every present field first; writes nothing unless all are valid.
    func patch(id: String, body: Data) -> Response {
        // A client's body is measured before Foundation parses it (see JSONCoding.maximumDepth).
        do { try JSONCoding.checkDepth(body) } catch { return Self.badRequest(error.description) }
        guard let object = try? JSONCoding.decode(DeviceFields.self, from: body) else {
            return Self.badRequest("the body must be a JSON object")
        }
        if let problem = Self.problem(in: object, creating: false) { return Self.badRequest(problem) }
        return devices.withLock { devices in
            guard let index = devices.firstIndex(where: { $0.id == id }) else {
                return Self.badRequest("unknown device \(id)")
            }
            if let newID = object.string("id"), newID != id, devices.contains(where: { $0.id == newID }) {
                return Self.badRequest("id \(newID) is taken by another device")
            }
            var device = devices[index]
            if let value = object.string("id") { device.id = value }
            if let value = object.string("type") { device.type = value }
            if let value = object.string("meterPointDescription") { device.meterPointDescription = value }
            if object.values["installationDate"] != nil {
                device.installationDate = object.string("installationDate")
                device.dateAbsent = false
            }
            devices[index] = device
            return Response(status: .ok)
        }
    }

    /// The first problem with a device object's fields, or nil. `creating` requires every field.
    static func problem(in object: DeviceFields, creating: Bool) -> String? {
        let values = object.values
        for key in values.keys.sorted() where !fields.contains(key) { return "unknown field \"\(key)\"" }
        if creating {
            for key in ["id", "meterPointDescription", "type"] where values[key] == nil { return "missing field \"\(key)\"" }
        }
        if values["id"] != nil, object.string("id")?.isEmpty != false { return "id must be a non-empty string" }
        if values["meterPointDescription"] != nil, object.string("meterPointDescription")?.isEmpty != false {
            return "meterPointDescription must be a non-empty string"
        }
        if values["type"] != nil, !types.contains(object.string("type") ?? "") {
            return "type must be warm_water, cold_water or heating"
        }
        if let value = values["installationDate"], value != .null {
            guard let text = object.string("installationDate"), ISO8601.parse(text) != nil else {
                return "installationDate must be an ISO 8601 date or null"
            }
        }
        return nil
    }

    static func badRequest(_ message: String) -> Response {
        Response.text("Bad Request: \(message)", status: .badRequest)
    }
}
