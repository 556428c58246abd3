import CoreKit

/// A second reader of one parse of a body: the search index's renderer (`PostCache.BodyIndexer`)
/// gets the same libxml2 events as the reader's (`PostPage.render(…, indexing:)`), and learns
/// whether the parse reached the body's end. Here, beside the renderer, so that the page and
/// its fuzz harness need nothing of the cache.
public final class SharedParse {
    package let renderer: BodyRenderer
    /// Set once the parse reached the body's end.
    package var reachedEnd = false

    package init(renderer: BodyRenderer) { self.renderer = renderer }
}
