import ArgumentParser
import BlogctlKit
import ToolboxKit

extension Blogctl {
    struct Show: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "show",
            abstract: "Show one post's metadata, with the author's image URL resolved against the server.")

        @Argument(help: "The post's id (as list shows it).", completion: .custom { words, index, prefix in PostIDCompletion.candidates(before: Array(words.prefix(index)), prefix: prefix) })
        var id: String

        @OptionGroup var common: CommonOptions

        func run() async throws {
            let id = try PostCache.standard(server: try common.serverURL(tool: .blogctl))
                .resolvedID(try ResourceID.validate(id, kind: "post id"))
            let (metadata, imageURL) = try await common.withClient(tool: .blogctl) { api in
                let client = BlogClient(api: api)
                let metadata = try await client.metadata(id)
                return (metadata, api.server.requestURL(try client.imagePath(metadata)))
            }
            if common.json {
                StandardOutput.printJSON(AnnotatedMetadata(metadata, key: "imageURL", value: imageURL))
                return
            }
            let mode = common.outputMode
            StandardOutput.print(FieldList.render([
                ("id", metadata.id),
                ("post id", metadata.postId),
                ("title", metadata.title),
                ("author", metadata.author.name),
                ("author title", metadata.author.title),
                ("published", DateDisplay.format(metadata.publishDate, for: mode)),
                ("summary", metadata.summary),
                ("image", imageURL),
            ], mode))
        }
    }
}
