import Foundation
import Glibc
import Testing
import TestSupport
@testable import CoreKit

/// `LocalFile.writeAtomically`: a reader sees the old file or the new one; a file likely new
/// (a cache sidecar) is linked into place with no temporary name, and one that is not new
/// after all is written the usual way.
@Suite struct AtomicWriteTests {
    func names(_ folder: String) -> [String] { (try? FileManager.default.contentsOfDirectory(atPath: folder).sorted()) ?? [] }

    @Test func aLikelyNewFileIsLinkedInPlaceWithItsModeAndNothingLeftBehind() throws {
        let folder = TemporaryFolders.make("atomic")
        let path = folder + "/1.json"
        try LocalFile.writeAtomically(path, Array("first".utf8), mode: 0o600, durable: false, likelyNew: true)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "first")
        var info = stat()
        #expect(stat(path, &info) == 0 && info.st_mode & 0o777 == 0o600)
        #expect(LocalFile.linkedNew(path, Array("again".utf8), mode: 0o600) == false)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "first")
        try LocalFile.writeAtomically(path, Array("second".utf8), mode: 0o644, durable: false, likelyNew: true)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "second")
        #expect(stat(path, &info) == 0 && info.st_mode & 0o777 == 0o644)
        #expect(names(folder) == ["1.json"])
    }

    @Test func aSymlinkAtTheNameIsReplacedNeverFollowed() throws {
        let folder = TemporaryFolders.make("atomic")
        let victim = TemporaryFolders.make("atomic-outside") + "/victim"
        try Data("untouched".utf8).write(to: URL(fileURLWithPath: victim))
        let path = folder + "/2.json"
        #expect(symlink(victim, path) == 0)
        try LocalFile.writeAtomically(path, Array("mine".utf8), mode: 0o600, durable: false, likelyNew: true)
        #expect(try String(contentsOfFile: victim, encoding: .utf8) == "untouched")
        var info = stat()
        #expect(lstat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFREG)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "mine")
        #expect(names(folder) == ["2.json"])
    }
}
