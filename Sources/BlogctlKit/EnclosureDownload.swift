#if canImport(Glibc)
import Glibc
#endif
import FoundationEssentials
import ToolboxKit

/// A queued file fetched to its path (`blogctl download`), as podboat and curl `-C -` fetch:
/// into `PATH.part`, resumed from its size with a `Range` request, renamed to `PATH` once
/// whole. A server that ignores the range sends the whole file, which is then written from
/// its start. The part is opened without following a symbolic link and must be a regular
/// file; the file is never larger than `maxBytes`.
public enum EnclosureDownload {
    /// Fetches `file` through `api` (a client of the file's own server); its size.
    public static func fetch(_ file: QueuedDownload, api: APIClient, maxBytes: Int64,
                             progress: (Int64, Int64?) -> Void) async throws(ToolError) -> Int64 {
        let part = file.partPath
        let fd = open(part, O_WRONLY | O_CREAT | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK, 0o644)
        guard fd >= 0 else { throw .io(path: part, reason: String(cString: strerror(errno))) }
        defer { close(fd) }
        var status = stat()
        guard fstat(fd, &status) == 0, status.st_mode & S_IFMT == S_IFREG else {
            throw .io(path: part, reason: "not a regular file; refusing to write to it")
        }
        let resumedAt = Int64(status.st_size)
        guard resumedAt < maxBytes else { throw .protocolViolation(url: file.url, detail: "a file over the limit of \(maxBytes) bytes") }
        var start = resumedAt
        var written: Int64 = 0
        lseek(fd, off_t(start), SEEK_SET)
        // The body may be the whole file (a server that ignores the range): the file's cap is
        // checked as it is written, where the start is known.
        let response = try await api.download.stream(
            .GET, file.url, headers: resumedAt > 0 ? [("Range", "bytes=\(resumedAt)-")] : [], maxBytes: Int(maxBytes),
            pace: .minimumRate,
            progress: { done, total in progress(start + done, total.map { start + $0 }) },
            answered: { head throws in
                if head.status == 206 {
                    guard Self.rangeStart(head.header("Content-Range")) == start else {
                        throw ToolError.protocolViolation(url: file.url, detail: "a part that does not start where \(part) ends")
                    }
                } else {
                    // The whole file, whatever was asked: written from its start.
                    start = 0
                    _ = ftruncate(fd, 0)
                    lseek(fd, 0, SEEK_SET)
                }
                if let length = head.header("Content-Length").flatMap({ Int64($0) }), start + length > maxBytes {
                    throw ToolError.protocolViolation(url: file.url, detail: "a file of \(start + length) bytes, over the limit of \(maxBytes)")
                }
            },
            restart: {
                written = 0
                _ = ftruncate(fd, off_t(start))
                lseek(fd, off_t(start), SEEK_SET)
            },
            consume: { piece throws in
                written += Int64(piece.count)
                guard start + written <= maxBytes else {
                    throw ToolError.protocolViolation(url: file.url, detail: "a file larger than the limit of \(maxBytes) bytes")
                }
                let result = LocalFile.writeAll(fd, piece)
                if result != 0 { throw ToolError.io(path: part, reason: String(cString: strerror(result))) }
            })
        if response.status == 416, resumedAt > 0 {
            // Nothing after the part: whole when the server's length is the part's.
            guard Self.rangeLength(response.header("Content-Range")) == resumedAt else {
                _ = ftruncate(fd, 0)
                throw .httpStatus(url: file.url, status: 416, message: "the file changed on the server; its part was dropped, run again")
            }
        } else if !(200..<300).contains(response.status) {
            throw .httpStatus(url: file.url, status: response.status, message: response.summary)
        }
        guard fsync(fd) == 0, rename(part, file.path) == 0 else { throw .io(path: file.path, reason: String(cString: strerror(errno))) }
        var whole = stat()
        return stat(file.path, &whole) == 0 ? Int64(whole.st_size) : 0
    }

    /// Fetches every file queued in `library`, in order, each through a client of its own
    /// server made as `common` makes clients (proxy, trust, timeouts); `ended` hears each
    /// (its failure, or nil once it is whole), which the queue remembers. The first failure.
    public static func drain(_ library: Library, common: CommonOptions, maxBytes: Int64,
                             started: (QueuedDownload) -> Void = { _ in },
                             progress: @escaping @Sendable (QueuedDownload, Int64, Int64?) -> Void,
                             ended: (QueuedDownload, ToolError?) -> Void) async throws(ToolError) -> ToolError? {
        var first: ToolError?
        for file in try library.downloads.pending() {
            if Task.isCancelled { break }
            started(file)
            do throws(ToolError) {
                let server: ServerURL
                do { server = try ServerURL(file.url, allowingQuery: true) } catch { throw .usage("\(Terminal.quote(file.url)): \(error.message)") }
                do {
                    try await common.withClient(tool: .blogctl, server: server, waitSpinner: false) { api in
                        _ = try await fetch(file, api: api, maxBytes: maxBytes) { done, total in progress(file, done, total) }
                    }
                } catch let error as ToolError {
                    throw error
                } catch {
                    throw .io(path: file.path, reason: String(describing: error))
                }
                try library.downloads.ended(file.url, error: nil)
                ended(file, nil)
            } catch {
                try? library.downloads.ended(file.url, error: error.message)
                ended(file, error)
                first = first ?? error
            }
        }
        return first
    }

    /// The files `post` carries, as the queue takes them.
    public static func files(of post: PostMetadata) -> [(url: String, entry: String, title: String)] {
        (post.enclosures ?? []).map { (url: $0.url, entry: post.id, title: post.title) }
    }

    /// `bytes 100-199/200` → 100.
    static func rangeStart(_ header: String?) -> Int64? {
        guard let header, header.utf8.starts(with: "bytes ".utf8) else { return nil }
        let start = header.utf8.dropFirst(6).prefix { $0 != UInt8(ascii: "-") }
        return Int64(String(decoding: start, as: UTF8.self).trimmingSpaces())
    }

    /// `bytes */200` or `bytes 0-199/200` → 200.
    static func rangeLength(_ header: String?) -> Int64? {
        guard let header, let slash = header.utf8.lastIndex(of: UInt8(ascii: "/")) else { return nil }
        return Int64(String(header[header.index(after: slash)...]).trimmingSpaces())
    }
}

/// Where downloads go: `--output-dir`, else the config's `download-dir`, else the XDG user
/// directory for downloads (`$XDG_DOWNLOAD_DIR`, then `user-dirs.dirs`), else `~/Downloads`.
public enum DownloadFolder {
    public static func resolve(_ option: String?, environment: [String: String] = Environment.current) -> String {
        let paths = Paths(environment: environment)
        func expanded(_ text: String) -> String {
            if text == "~" { return paths.home }
            if text.utf8.starts(with: "~/".utf8) { return Paths.join(paths.home, String(text.dropFirst(2))) }
            return text
        }
        if let option, !option.isEmpty { return expanded(option) }
        if let configured = Settings.current.text(.downloadDir), !configured.isEmpty { return expanded(configured) }
        if let variable = environment["XDG_DOWNLOAD_DIR"], variable.utf8.first == UInt8(ascii: "/") { return variable }
        if let bytes = try? LocalFile.read(Paths.join(paths.configHome, "user-dirs.dirs"), limit: 64 << 10, regularOnly: true),
           let folder = userDirsDownload(String(decoding: bytes, as: UTF8.self), home: paths.home) {
            return folder
        }
        return Paths.join(paths.home, "Downloads")
    }

    /// `XDG_DOWNLOAD_DIR="$HOME/Downloads"` in xdg-user-dirs' file: an absolute path or one
    /// under `$HOME`, as its man page allows.
    static func userDirsDownload(_ text: String, home: String) -> String? {
        for line in text.split(separator: "\n") where line.utf8.starts(with: "XDG_DOWNLOAD_DIR=\"".utf8) && line.utf8.last == UInt8(ascii: "\"") {
            let value = String(line.dropFirst(18).dropLast())
            if value.utf8.starts(with: "$HOME/".utf8) { return Paths.join(home, String(value.dropFirst(6))) }
            if value.utf8.first == UInt8(ascii: "/") { return value }
        }
        return nil
    }
}
