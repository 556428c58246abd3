import ArgumentParser
import BlogctlKit
import ToolboxKit

extension Blogctl {
    struct Avatar: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "avatar",
            abstract: "Download the image of a post's author.",
            discussion: "The file is written whole or not at all. -o - writes to stdout, unless it is a terminal.")

        @Argument(help: "The post's id.", completion: .custom { words, index, prefix in PostIDCompletion.candidates(before: Array(words.prefix(index)), prefix: prefix) })
        var id: String

        @Option(name: [.short, .customLong("output")], help: ArgumentHelp("Where to write the image; - for stdout.", valueName: "file"), completion: .file())
        var output: String

        @OptionGroup var common: CommonOptions

        func run() async throws {
            let id = try ResourceID.validate(id, kind: "post id")
            if output == "-" && Terminal.isTTY(Terminal.standardOutput) {
                throw ToolError.usage("not writing an image to a terminal; use -o FILE or a pipe")
            }
            let image = try await common.withClient(tool: .blogctl) { api in
                let client = BlogClient(api: api)
                return try await client.avatar(try await client.metadata(id))
            }
            if output == "-" {
                StandardOutput.write(bytes: image)
            } else {
                try LocalFile.writeAtomically(output, image)
                if !common.quiet && Terminal.isTTY(Terminal.standardError) {
                    Tool.blogctl.say("wrote \(ProgressDisplay.bytes(Int64(image.count))) to \(output)")
                }
            }
        }
    }
}
