/// Everything `mockd`'s command line decides.
public struct MockdConfiguration: Sendable {
    public var host = "127.0.0.1"
    public var port = 8106
    /// The folder holding `conditions/`, `blog/` and `devices/`.
    public var dataDirectory = "data"
    /// Overrides every API's default latency when set.
    public var latency: LatencyRange?
    /// Overrides every API's default failure rate when set.
    public var failureRate: Double?
    public var seed: UInt64 = 1
    public var quiet = false
    /// Extra devices to generate beyond the seed data, for load tests.
    public var generatedDevices = 0
    /// `--devices-drift P`: the share of installation dates changed before each GET /devices.
    public var devicesDrift = 0.0
    /// `--conditions N`: generated condition records beyond `data/conditions`.
    public var generatedConditions = 0
    /// Extra blog posts to generate, for load tests, and the bytes of each one's body (at
    /// least; seeded prose, different words per post).
    public var generatedPosts = 0
    public var generatedPostSize = 0
    /// `--feeds N`: generated RSS feeds (`/feeds/1.xml` …, listed in `/feeds.opml`) of
    /// `feedItems` entries each, for a feed reader's load.
    public var generatedFeeds = 0
    public var feedItems = 20
    /// Bytes of the massive blog post's HTML (0: no massive post), and its bytes per second.
    public var massiveSize = 8_000_000
    public var massiveRate = 2_000_000
    /// The passcode API's credentials and, when not empty, the codes it chooses from.
    public var passcodeUser = "Runloop"
    public var passcodePassword = "Run!@0p"
    public var passcodeCodes: [String] = []
    /// PEM files of a certificate (chain) and its key: serve HTTPS instead of HTTP.
    public var tlsCertificate: String?
    public var tlsKey: String?

    public init() {}

    /// An API's default profile with the command line's overrides.
    public func profile(_ defaults: FaultProfile) -> FaultProfile {
        defaults.overridden(latency: latency, failureRate: failureRate)
    }
}
