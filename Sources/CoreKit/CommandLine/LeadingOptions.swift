/// Shared options written before the subcommand (`condtest --server URL list`, as git and
/// curl allow) are moved after it, where the subcommand's own parser finds them. Only the
/// options every networked command shares are moved, and only when the first word after them
/// is a subcommand; anything else is left to ArgumentParser to report as it would.
public enum LeadingOptions {
    /// Options that take a value (`--server URL` or `--server=URL`).
    static let valued: Set<String> = ["--server", "--timeout", "--connect-timeout", "--retries", "--cacert",
                                      "--proxy", "--noproxy", "--store"]
    /// Options that take none.
    static let flags: Set<String> = ["--json", "--quiet", "-q", "--verbose", "-v", "--insecure", "-k", "--proxytunnel"]

    public static func hoisted(_ arguments: [String], subcommands: Set<String>) -> [String] {
        var moved: [String] = []
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            // Split at the first "=" only when a name stands before it: `=--server` is no option.
            let name = argument.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? argument
            if valued.contains(name) {
                if argument.contains("=") {
                    moved.append(argument)
                    index += 1
                } else {
                    guard index + 1 < arguments.count else { return arguments }
                    moved += [argument, arguments[index + 1]]
                    index += 2
                }
            } else if flags.contains(argument) {
                moved.append(argument)
                index += 1
            } else {
                break
            }
        }
        guard !moved.isEmpty, index < arguments.count, subcommands.contains(arguments[index]) else { return arguments }
        var rest = Array(arguments[index...])
        // Positional arguments after `--` stay positional.
        if let end = rest.firstIndex(of: "--") { rest.insert(contentsOf: moved, at: end) } else { rest += moved }
        return rest
    }

    /// The first word after the shared options written before it: the subcommand, if any.
    public static func firstWord(_ arguments: [String]) -> String? {
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            let name = argument.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? argument
            if valued.contains(name) { index += argument.contains("=") ? 1 : 2 }
            else if flags.contains(argument) { index += 1 }
            else { return argument }
        }
        return nil
    }
}
