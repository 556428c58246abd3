import ArgumentParser
import BlogctlKit
import ToolboxKit

/// `--max-age`, for the commands that show one post (read, links, open): how long a cached
/// copy is shown without asking the server, as an HTTP cache's max-age. The option, else
/// `BLOGCTL_MAX_AGE`, else config.yml's `max-age:`, else 300 seconds; 0 always asks.
struct FreshnessOption: ParsableArguments {
    @Option(name: .customLong("max-age"), help: ArgumentHelp(
        "Show a cached copy revalidated less than this many seconds ago without asking the server (default: 300; 0 always asks).",
        valueName: "seconds"))
    var maxAge: Double?

    func validate() throws {
        if let maxAge, !(maxAge >= 0 && maxAge <= 31_536_000) { throw ValidationError("--max-age must be between 0 and 31536000 seconds") }
    }

    /// The window in force, and what set it.
    var seconds: Double {
        if let maxAge { return maxAge }
        if let text = Environment.current["BLOGCTL_MAX_AGE"], let value = Double(text), value >= 0, value <= 31_536_000 { return value }
        return Settings.current.number(.maxAge) ?? PostLoader.defaultMaxAge
    }
}
