import Foundation

/// A blog for mockd's `--data`: `posts.json` with one post per entry (id, title, publish
/// date as written) by one author, and each post's body. Returns the data folder.
enum BlogData {
    static func write(_ folder: String, _ posts: [(id: String, title: String, date: String)],
                      body: (String) -> String = { "<p>body of \($0)</p>" }) throws -> String {
        try FileManager.default.createDirectory(atPath: folder + "/blog/bodies", withIntermediateDirectories: true)
        let items = posts.map { post in
            ["id": post.id, "title": post.title, "publishDate": post.date, "postId": post.id, "summary": "s",
             "author": ["name": "Ann", "image": "/images/authors/a.jpg", "title": "T"]] as [String: Any]
        }
        try JSONSerialization.data(withJSONObject: items).write(to: URL(fileURLWithPath: folder + "/blog/posts.json"))
        for post in posts { try Data(body(post.id).utf8).write(to: URL(fileURLWithPath: folder + "/blog/bodies/\(post.id).html")) }
        return folder
    }
}
