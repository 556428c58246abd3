import ArgumentParser
import BlogctlKit
import ToolboxKit

extension Blogctl {
    struct Download: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "download",
            abstract: "Download the files feed entries carry (a podcast's episodes), resumably.",
            discussion: """
                Queues every file of each entry named (blogctl enclosures lists them), then \
                fetches everything queued, in order: without an id, what a run before left \
                queued (a quit, a failure). Files go to --output-dir, else the config's \
                download-dir, else $XDG_DOWNLOAD_DIR (or xdg-user-dirs' folder), else ~/Downloads, \
                named after their URL (never outside the folder, never hidden; `name (2).mp3` \
                when the name is taken). A file grows as NAME.part, resumed from its size with \
                an HTTP Range request, and is renamed once whole. Each path written is printed.

                Examples:
                  blogctl download e42
                  blogctl download            # what is still queued
                  blogctl download e42 -o ~/Podcasts --max-size 500M
                """)

        @Argument(help: "Entries' ids (as list shows them); none: what is queued.",
                  completion: .custom { words, index, prefix in PostIDCompletion.candidates(before: Array(words.prefix(index)), prefix: prefix) })
        var ids: [String] = []

        @Option(name: [.short, .customLong("output-dir")], help: ArgumentHelp("The folder to download into.", valueName: "dir"),
                completion: .directory)
        var outputDir: String?

        @Option(help: ArgumentHelp("The largest file fetched (500M, 2G; powers of 1000, KiB/MiB/GiB of 1024).", valueName: "size"))
        var maxSize = "4G"

        @OptionGroup var common: CommonOptions

        func validate() throws {
            guard let size = ByteSize.parse(maxSize), size > 0 else { throw ValidationError("--max-size: expected a size such as 500M, found \(Terminal.quote(maxSize))") }
        }

        func run() async throws {
            let library = try Library.standard()
            if !ids.isEmpty {
                let folder = DownloadFolder.resolve(outputDir)
                try LocalFile.makeDirectories(folder)
                let entries = try EnclosureLookup.entries(ids, common: common)
                let files = entries.flatMap { entry in (entry.enclosures ?? []).map { (url: $0.url, entry: entry.id, title: entry.title) } }
                for entry in entries where (entry.enclosures ?? []).isEmpty {
                    Tool.blogctl.warn("post \(Terminal.quote(entry.id)) carries no file")
                }
                _ = try library.queue(files, into: folder)
            }
            let pending = try library.pendingDownloads()
            if pending.isEmpty {
                if ids.isEmpty, !common.quiet { Tool.blogctl.say("nothing queued") }
                return
            }
            var firstFailure: ToolError?
            for file in pending {
                do throws(ToolError) {
                    try await fetch(file)
                    try library.downloadEnded(file.url, error: nil)
                    StandardOutput.print(file.path + "\n")
                } catch {
                    try? library.downloadEnded(file.url, error: error.message)
                    Tool.blogctl.warn("\(Terminal.sanitizeField(file.url)): \(error.message) (still queued: blogctl download resumes it)")
                    firstFailure = firstFailure ?? error
                }
            }
            if let firstFailure { throw firstFailure }
        }

        private func fetch(_ file: QueuedDownload) async throws(ToolError) {
            let server: ServerURL
            do { server = try ServerURL(file.url, allowingQuery: true) } catch { throw .usage("\(Terminal.quote(file.url)): \(error.message)") }
            let progress = ProgressDisplay(label: Terminal.sanitizeField(EnclosureName.name(for: file.url)), enabled: common.showsProgress)
            defer { progress.finish() }
            do {
                try await common.withClient(tool: .blogctl, server: server, waitSpinner: false) { api in
                    progress.start()
                    _ = try await EnclosureDownload.fetch(file, api: api, maxBytes: Int64(ByteSize.parse(maxSize) ?? 0)) { done, total in
                        progress.update(done: done, total: total)
                    }
                }
            } catch let error as ToolError {
                throw error
            } catch {
                throw .io(path: file.path, reason: String(describing: error))
            }
        }
    }
}
