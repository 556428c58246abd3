import BlogctlKit
import ToolboxKit
import BlogctlEngines

/// A post's metadata and body for `read`, `links` and `open`: from the cache, revalidated
/// with the server unless `offline` or younger than `maxAge`, with the download's progress on
/// stderr. With it, the server it came from: the one named, or the subscribed feed listing it
/// (worked out once: its marks and its links' base are that feed's).
/// `indexesAsRendered`: a body fetched now comes with its `indexer`, for the caller's parse.
func loadPost(_ id: String, offline: Bool, maxAge: Double, common: CommonOptions,
              indexesAsRendered: Bool = false) async throws -> (post: PostLoader.Loaded, server: ServerURL) {
    // Without a server, a subscribed feed that lists the post.
    let server = try SubscriptionListing.server(for: id, common) ?? common.serverURL(tool: .blogctl)
    let cache = try PostCache.standard(server: server)
    // The start of a listed id, as git takes a short hash; and its post id, the listing read once.
    let (id, postId) = try cache.lookUp(try ResourceID.validate(id, kind: "post id"))
    let warn: @Sendable (String) -> Void = { message in Tool.blogctl.say("" + message) }
    if offline { return (try await PostLoader(cache: cache, client: nil, warn: warn).load(id), server) }
    // Fresh in the cache: shown at once, without connecting.
    if let fresh = PostLoader(cache: cache, client: nil, maxAge: maxAge, warn: warn).fresh(id) { return (fresh, server) }
    let progress = ProgressDisplay(label: "post \(id)", enabled: common.showsProgress)
    if progress.enabled { Interrupt.clearLineAndExit() }
    progress.start()
    defer { progress.finish() }
    let post = try await common.withClient(tool: .blogctl, server: server, waitSpinner: false) { api in
        var loader = PostLoader(cache: cache, client: BlogClient(api: api), maxAge: maxAge, warn: warn)
        loader.indexesAsRendered = indexesAsRendered
        // No bar shown (not a terminal, --quiet): the whole download within --timeout.
        guard progress.enabled else { return try await loader.load(id, listedPostId: postId) }
        return try await loader.load(id, listedPostId: postId) { done, total in progress.update(done: done, total: total) }
    }
    return (post, server)
}

/// A post loaded as `loadPost` loads it, and its links numbered as `read` numbers them (for
/// `links` and `open`): one parse finds them and indexes a body fetched now.
func loadPostAndLinks(_ id: String, offline: Bool, maxAge: Double, common: CommonOptions) async throws
    -> (post: PostLoader.Loaded, links: [String]) {
    let (loaded, server) = try await loadPost(id, offline: offline, maxAge: maxAge, common: common, indexesAsRendered: true)
    defer { loaded.indexer?.finish() }
    let links = try PostPage.links(loaded.metadata, body: loaded.body, options: RenderOptions(links: LinkResolver(for: loaded.metadata, server: server)),
                                   indexing: loaded.indexer?.parse)
    return (loaded, links)
}
