import ScreenKit
import ToolboxKit
import BlogctlEngines

/// What `PostBrowser`'s commands work with (the server, the cache, the marks, where the
/// arrangement is kept), and the commands' work itself, off the screen's thread: the screen's
/// state and its work are two types, as a bubbletea model and its commands are.
public struct PostBrowserWork: Sendable {
    public let client: BlogClient
    public let cache: PostCache
    public let marks: ReadMarks
    public let arrangementPath: String
    /// How clients of other servers are made (a download's): the command's options.
    public let common: CommonOptions?

    public init(client: BlogClient, cache: PostCache, marks: ReadMarks, arrangementPath: String, common: CommonOptions? = nil) {
        self.client = client
        self.cache = cache
        self.marks = marks
        self.arrangementPath = arrangementPath
        self.common = common
    }

    /// Runs `blogctl ui` until the user quits; returns the exit status.
    public func run() async throws(ToolError) -> Int32 {
        let program = PostBrowser(server: client.server.description, arrangement: Arrangement.load(from: arrangementPath))
        return try await ScreenRunner.exitStatus(program, color: Terminal.colorEnabled()) { command, poster in
            await perform(command, poster: poster)
        }
    }
}

extension PostBrowserWork {
    /// Does one command's work off the screen's thread and posts what came of it.
    func perform(_ command: PostBrowser.Command, poster: ScreenRunner.Poster<PostBrowser.Message>) async {
        switch command {
        case .loadList:
            let read = try? marks.load()
            if let saved = try? cache.savedListing() { poster.post(.listing(saved, read: read, fromServer: false)) }
            // A refresh asking this feed right now (the feed list's, at start) is joined: its
            // answer is the library's when it ends, and the feed is not asked twice.
            switch await RefreshesInFlight.shared.join(client.server.folderName) {
            case .notAsked: break
            case .listed:
                guard !Task.isCancelled else { return }
                if let saved = try? cache.savedListing() { return poster.post(.listing(saved, read: try? marks.load(), fromServer: true)) }
            case .failed(let error):
                if !Task.isCancelled { poster.post(.listFailed(error)) }
                return
            }
            do {
                let posts = try await client.metadataList()
                guard !Task.isCancelled else { return }
                poster.post(.listing(posts, read: read, fromServer: true))
                // A copy, after the screen has the list: failing to write it is no error. The
                // search index learns it at the first search (`PostCache.search`).
                try? cache.saveListing(posts)
            } catch {
                if !Task.isCancelled { poster.post(.listFailed(error)) }
            }
        case .openPost(let id, let width):
            // A cached body shows at once; the server is asked afterwards whether it changed
            // (a slow server never delays a post already here), and a new body replaces it.
            // Shown from the cache before the server is asked: not offline, only not asked yet.
            let cached = try? await PostLoader(cache: cache, client: nil).load(id)
            if let cached { poster.post(.post(id: id, render(cached, width: width, offline: false))) }
            let gate = ProgressGate()
            var loader = PostLoader(cache: cache, client: client)
            loader.indexesAsRendered = true  // one parse lays it out for the pane and the index
            do {
                let loaded = try await loader.load(id) { done, total in
                    if let seconds = gate.due() { poster.post(.progress(id: id, done: done, total: total, seconds: seconds)) }
                }
                guard !Task.isCancelled else { return }
                // The server answered 304 (or 200 with the same copy): what is shown stands. It
                // could not be reached: only then is the copy shown offline.
                if cached != nil && loaded.source == .cache { return poster.post(.cachedOnly(id: id)) }
                guard cached == nil || loaded.source == .server else { return }
                poster.post(.post(id: id, render(loaded, width: width)))
                loaded.indexer?.finish()
            } catch {
                if !Task.isCancelled, cached == nil { poster.post(.post(id: id, .failure(error))) }
            }
        case .stopLoading:
            return
        case .render(let id, let width):
            guard let loaded = try? await PostLoader(cache: cache, client: nil).load(id), !Task.isCancelled,
                  case .success(let text) = render(loaded, width: width) else { return }
            poster.post(.rendered(id: id, width: width, text))
        case .mark(let ids, let read):
            do {
                try marks.mark(ids, read: read)
                poster.post(.marked(nil))
            } catch {
                poster.post(.marked(error))
            }
        case .search(let query):
            let words = query.split(separator: " ").map(String.init)
            let result: Result<[SearchIndex.Hit], ToolError>
            do { result = .success(try cache.search(words, limit: 200, marks: SearchQuery.marks)) } catch { result = .failure(error) }
            poster.post(.found(query: query, result))
        case .download(let post):
            guard let common else { return poster.post(.downloaded(path: "", .usage("no downloads here"))) }
            do {
                let library = try Library.standard()
                let folder = DownloadFolder.resolve(nil)
                try LocalFile.makeDirectories(folder)
                _ = try library.downloads.add(EnclosureDownload.files(of: post), into: folder)
                let gate = ProgressGate()
                _ = try await EnclosureDownload.drain(
                    library, common: common, maxBytes: 4_000_000_000,
                    progress: { file, done, total in
                        if gate.due() != nil { poster.post(.downloadProgress(name: EnclosureName.name(for: file.url), done: done, total: total)) }
                    },
                    ended: { file, error in poster.post(.downloaded(path: file.path, error)) })
            } catch {
                poster.post(.downloaded(path: "", error))
            }
        case .openLink(let url):
            do {
                try BrowserLauncher.open(url, detached: true)
                poster.post(.opened(url: url, nil))
            } catch {
                poster.post(.opened(url: url, error))
            }
        case .prefetch(let posts):
            let gate = ProgressGate()
            let prefetcher = Prefetcher(cache: cache, client: client, jobs: 4, maxSize: 1_000_000)
            let results = await prefetcher.run(posts) { done, total in
                if gate.due() != nil || done == total { poster.post(.prefetchProgress(done: done, total: total)) }
            }
            let failed = results.filter { $0.outcome == .failed }
            poster.post(.prefetched(fetched: results.count { $0.outcome == .fetched }, failed: failed.count,
                                    firstFailure: failed.first.map { "prefetch: " + $0.detail }))
        case .saveArrangement(let arrangement):
            try? arrangement.save(to: arrangementPath)
        }
    }

    /// The body laid out for the pane: `read`'s renderer, without styles (the screen has its
    /// own), written as it is laid out into a spooled file in the cache's private folder.
    func render(_ loaded: PostLoader.Loaded, width: Int, offline: Bool? = nil) -> Result<PostText, ToolError> {
        let options = RenderOptions(format: .text, width: width, styled: false,
                                    links: LinkResolver(for: loaded.metadata, server: client.server))
        do throws(ToolError) {
            let writer = try SpooledText.Writer(folder: cache.directory)
            let links = try PostPage.renderBodyAndLinks(loaded.metadata, body: loaded.body, options: options, indexing: loaded.indexer?.parse) { writer.append($0) }
            return .success(PostText(metadata: loaded.metadata, text: try writer.finish(), links: links,
                                     offline: offline ?? (loaded.source == .cache)))
        } catch {
            return .failure(error)
        }
    }
}

/// What `blogctl ui`'s reader asks for: the network, the cache, the marks and the browser.
public enum PostBrowserCommand: ScreenCommand, Equatable {
    /// The saved listing at once, then the server's.
    case loadList
    case openPost(id: String, width: Int)
    /// Back on the list: a download still running is cancelled.
    case stopLoading
    /// The open post laid out again for a new width, from the cache.
    case render(id: String, width: Int)
    case mark(ids: [String], read: Bool)
    case search(String)
    case openLink(String)
    case prefetch([PostMetadata])
    case saveArrangement(Arrangement)
    /// The post's files queued, and the queue fetched (`blogctl download`).
    case download(PostMetadata)

    public var policy: CommandPolicy {
        switch self {
        case .loadList: .latest("list")
        case .openPost, .stopLoading: .latest("post")
        case .render: .latest("render")
        case .mark: .serial("marks")
        case .search: .latest("search")
        case .openLink: .serial("browser")
        case .prefetch: .latest("prefetch")
        case .saveArrangement: .serial("state")
        case .download: .serial("downloads")
        }
    }
}

/// What arrives for `blogctl ui`'s reader from the work its commands started.
public enum PostBrowserMessage: Sendable, Equatable {
    /// A listing, from the saved copy or the server, and the read marks (nil: unreadable).
    case listing([PostMetadata], read: ReadMarks.IDs?, fromServer: Bool)
    case listFailed(ToolError)
    case progress(id: String, done: Int64, total: Int64?, seconds: Double)
    case post(id: String, Result<PostText, ToolError>)
    case rendered(id: String, width: Int, PostText)
    /// The post shown from the cache could not be checked: the server is out of reach.
    case cachedOnly(id: String)
    case marked(ToolError?)
    case found(query: String, Result<[SearchIndex.Hit], ToolError>)
    case opened(url: String, ToolError?)
    case prefetchProgress(done: Int, total: Int)
    case prefetched(fetched: Int, failed: Int, firstFailure: String?)
    case downloadProgress(name: String, done: Int64, total: Int64?)
    /// A queued file is whole at `path`, or failed (it stays queued).
    case downloaded(path: String, ToolError?)
}
