import Foundation
import TestSupport
import Testing
import ToolboxKit
@testable import BlogctlKit

/// The listing `list` and `ui` keep beside the cache, which `ui` opens with offline.
@Suite struct SavedListingTests {
    @Test func aListingSurvivesTheRoundTripInAPrivateFile() throws {
        let root = TemporaryFolders.make("blogctl-listing")
        let cache = PostCache(directory: root + "/blogctl/posts")
        #expect(try cache.savedListing() == nil)
        try cache.saveListing(Fixtures.posts)
        #expect(cache.listingPath == root + "/blogctl/listing.json")
        #expect(try cache.savedListing() == Fixtures.posts)
        var info = stat()
        #expect(stat(cache.listingPath, &info) == 0 && info.st_mode & 0o777 == 0o600)
    }

    @Test func aDamagedListingIsAnErrorThatSaysWhatWritesItAgain() throws {
        let root = TemporaryFolders.make("blogctl-listing")
        let cache = PostCache(directory: root + "/blogctl/posts")
        try cache.saveListing([])
        try LocalFile.writeAtomically(cache.listingPath, Array("[{\"id\": 1".utf8))
        #expect(throws: ToolError.self) { try cache.savedListing() }
        do { _ = try cache.savedListing() } catch { #expect(error.message.contains("blogctl list writes it again")) }
    }

    @Test func aSymlinkInItsPlaceIsNotFollowed() throws {
        let root = TemporaryFolders.make("blogctl-listing")
        let cache = PostCache(directory: root + "/blogctl/posts")
        try cache.saveListing(Fixtures.posts)
        unlink(cache.listingPath)
        symlink("/etc/passwd", cache.listingPath)
        #expect(try cache.savedListing() == nil)
    }
}
