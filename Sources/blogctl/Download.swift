import ArgumentParser
import BlogctlKit
import Synchronization
import ToolboxKit
import BlogctlEngines

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
                for entry in entries where (entry.enclosures ?? []).isEmpty {
                    Tool.blogctl.warn("post \(Terminal.quote(entry.id)) carries no file")
                }
                _ = try library.downloads.add(entries.flatMap(EnclosureDownload.files), into: folder)
            }
            if try library.downloads.pending().isEmpty {
                if ids.isEmpty, !common.quiet { Tool.blogctl.say("nothing queued") }
                return
            }
            let display = Mutex<ProgressDisplay?>(nil)
            let failure = try await EnclosureDownload.drain(
                library, common: common, maxBytes: Int64(ByteSize.parse(maxSize) ?? 0),
                started: { file in
                    let progress = ProgressDisplay(label: Terminal.sanitizeField(EnclosureName.name(for: file.url)), enabled: common.showsProgress)
                    progress.start()
                    display.withLock { $0 = progress }
                },
                progress: { _, done, total in display.withLock { $0?.update(done: done, total: total) } },
                ended: { file, error in
                    display.withLock { $0?.finish(); $0 = nil }
                    if let error {
                        Tool.blogctl.warn("\(Terminal.sanitizeField(file.url)): \(error.message) (still queued: blogctl download resumes it)")
                    } else {
                        StandardOutput.print(file.path + "\n")
                    }
                })
            if let failure { throw failure }
        }
    }
}
