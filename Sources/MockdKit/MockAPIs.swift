import FoundationEssentials
import ToolboxKit

/// The APIs mockd serves, loaded from the data folder.
public enum MockAPIs {
    public static func load(_ configuration: MockdConfiguration) throws(ToolError) -> [any MockAPI] {
        let data = configuration.dataDirectory
        var isDirectory = false
        guard FileManager.default.fileExists(atPath: data, isDirectory: &isDirectory), isDirectory else {
            throw .io(path: data, reason: "no such data folder (use --data DIR)")
        }
        // An API whose data is absent is not served, so a test can bring just the data it needs.
        func present(_ path: String) -> Bool { FileManager.default.fileExists(atPath: data + "/" + path) }
        do {
            var apis: [any MockAPI] = []
            if present("conditions") { apis.append(try ConditionsAPI(directory: data + "/conditions", generated: configuration.generatedConditions,
                                                                    seed: configuration.seed)) }
            if present("blog/posts.json") {
                apis.append(try BlogAPI(directory: data + "/blog", massiveSize: configuration.massiveSize,
                                        massiveRate: configuration.massiveRate, generatedPosts: configuration.generatedPosts,
                                        generatedPostSize: configuration.generatedPostSize,
                                        generatedFeeds: configuration.generatedFeeds, feedItems: configuration.feedItems))
            }
            if present("devices/devices.json") {
                apis.append(try DevicesAPI(file: data + "/devices/devices.json", generated: configuration.generatedDevices,
                                            drift: configuration.devicesDrift, seed: configuration.seed))
            }
            apis.append(PasscodeAPI(user: configuration.passcodeUser, password: configuration.passcodePassword,
                                    codes: configuration.passcodeCodes))
            guard apis.count > 1 else { throw ToolError.io(path: data, reason: "no API data here (conditions/, blog/, devices/)") }
            return apis
        } catch let error as ToolError {
            throw error
        } catch let error as MockdDataError {
            throw .io(path: error.path, reason: error.problem)
        } catch {
            throw .io(path: data, reason: Terminal.sanitizeField(String(describing: error)))
        }
    }
}
