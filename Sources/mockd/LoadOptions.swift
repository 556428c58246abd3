import ArgumentParser
import MockdKit

/// What mockd generates beyond data/ for load tests: more devices, conditions and posts, and
/// the massive post's size and pace.
struct LoadOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Generate this many devices beyond data/devices, for load tests.", valueName: "n"))
    var devices = 0

    @Option(name: .customLong("devices-drift"), help: ArgumentHelp(
        "Before each GET /devices, change this share of installation dates, as another client would (0 to 1, seeded).",
        valueName: "p"))
    var devicesDrift = 0.0

    @Option(help: ArgumentHelp("Generate this many conditions beyond data/conditions (seeded, every operator, 1-3 arguments), for load tests.", valueName: "n"))
    var conditions = 0

    @Option(help: ArgumentHelp("Generate this many blog posts beyond data/blog, for load tests.", valueName: "n"))
    var posts = 0

    @Option(help: ArgumentHelp("Serve this many generated RSS feeds, /feeds/1.xml on, listed in /feeds.opml, for a feed reader's load.", valueName: "n"))
    var feeds = 0

    @Option(name: .customLong("feed-items"), help: ArgumentHelp("Entries in each generated feed.", valueName: "n"))
    var feedItems = 20

    @Option(name: .customLong("post-size"),
            help: ArgumentHelp("Bytes of each generated post's body (seeded prose), for search and cache loads.", valueName: "bytes"))
    var postSize = 0

    @Option(name: .customLong("massive-size"),
            help: ArgumentHelp("Bytes of the massive blog post's generated HTML; 0 leaves it out.", valueName: "bytes"))
    var massiveSize = 8_000_000

    @Option(name: .customLong("massive-rate"),
            help: ArgumentHelp("Bytes per second at which the massive post is sent.", valueName: "bytes"))
    var massiveRate = 2_000_000

    func validate() throws {
        guard (0...1_000_000).contains(devices) else { throw ValidationError("--devices must be between 0 and 1000000") }
        guard (0...1).contains(devicesDrift) else { throw ValidationError("--devices-drift must be between 0 and 1") }
        guard (0...1_000_000).contains(conditions) else { throw ValidationError("--conditions must be between 0 and 1000000") }
        guard (0...1_000_000).contains(posts) else { throw ValidationError("--posts must be between 0 and 1000000") }
        guard (0...10_000_000).contains(postSize) else { throw ValidationError("--post-size must be between 0 and 10000000") }
        guard (0...200_000_000).contains(massiveSize) else { throw ValidationError("--massive-size must be between 0 and 200000000") }
        guard massiveRate >= 1 else { throw ValidationError("--massive-rate must be at least 1") }
    }

    /// What these options decide, into mockd's configuration.
    func apply(to configuration: inout MockdConfiguration) {
        configuration.generatedDevices = devices
        configuration.generatedConditions = conditions
        configuration.devicesDrift = devicesDrift
        configuration.generatedPosts = posts
        configuration.generatedPostSize = postSize
        configuration.generatedFeeds = feeds
        configuration.feedItems = feedItems
        configuration.massiveSize = massiveSize
        configuration.massiveRate = massiveRate
    }
}
