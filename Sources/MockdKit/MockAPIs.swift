import Foundation
import ToolboxKit

/// The APIs mockd serves, loaded from the data folder.
public enum MockAPIs {
    public static func load(_ configuration: MockdConfiguration) throws(ToolError) -> [any MockAPI] {
        let data = configuration.dataDirectory
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: data, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw .io(path: data, reason: "no such data folder (use --data DIR)")
        }
        do {
            return [
                try ConditionsAPI(directory: data + "/conditions"),
                try DevicesAPI(file: data + "/devices/devices.json", generated: configuration.generatedDevices),
            ]
        } catch let error as MockdDataError {
            throw .io(path: error.path, reason: error.problem)
        } catch {
            throw .io(path: data, reason: Terminal.sanitizeField(String(describing: error)))
        }
    }
}
