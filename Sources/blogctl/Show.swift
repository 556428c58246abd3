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
            let server = try SubscriptionListing.server(for: id, common) ?? common.serverURL(tool: .blogctl)
            let id = try PostCache.standard(server: server).resolvedID(try ResourceID.validate(id, kind: "post id"))
            let (metadata, imageURL) = try await common.withClient(tool: .blogctl, server: server) { api in
                let client = BlogClient(api: api)
                let metadata = try await client.metadata(id)
                // A feed's entries name no author image.
                return (metadata, metadata.author.image.isEmpty ? nil : api.server.requestURL(try client.imagePath(metadata)))
            }
            if common.json {
                if let imageURL { StandardOutput.printJSON(AnnotatedMetadata(metadata, key: "imageURL", value: imageURL)) }
                else { StandardOutput.printJSON(metadata) }
                return
            }
            let mode = common.outputMode
            var fields = [
                ("id", metadata.id),
                ("post id", metadata.postId),
                ("title", metadata.title),
                ("author", metadata.author.name),
                ("author title", metadata.author.title),
                ("published", DateDisplay.format(metadata.publishDate, for: mode)),
                ("summary", metadata.summary),
            ]
            if let imageURL { fields.append(("image", imageURL)) }
            if let link = metadata.link { fields.append(("link", link)) }
            if let picture = metadata.picture { fields.append(("picture", picture)) }
            for enclosure in metadata.enclosures ?? [] { fields.append(("enclosure", enclosure.described)) }
            StandardOutput.print(FieldList.render(fields, mode))
        }
    }
}
