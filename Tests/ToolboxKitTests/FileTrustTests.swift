import Foundation
import Glibc
import Synchronization
import Testing
import TestSupport
@testable import CoreKit
@testable import ToolboxKit

/// Issue 37: one trust rule for the files the tools keep, as ssh's StrictModes.
@Suite struct FileTrustTests {
    func file(_ contents: String = "timeout: 5\n", mode: mode_t = 0o600) throws -> (folder: String, path: String) {
        let folder = TemporaryFolders.make("trust")
        let path = folder + "/config.yml"
        try LocalFile.writeAtomically(path, Array(contents.utf8), mode: mode)
        return (folder, path)
    }

    @Test func aPrivateFileIsTrustedAndAMissingOneIsNothing() throws {
        let (folder, path) = try file()
        #expect(FileTrust.problem(path, limit: 1 << 20) == nil)
        #expect(try FileTrust.read(path, limit: 1 << 20) == Array("timeout: 5\n".utf8))
        #expect(FileTrust.problem(folder + "/none", limit: 1 << 20) == nil)
    }

    @Test func writableByOthersOrOwnedByAnotherIsRefused() throws {
        let (folder, path) = try file(mode: 0o666)
        #expect(FileTrust.problem(path, limit: 1 << 20) == "it is writable by everyone (mode 666)")
        chmod(path, 0o620)
        #expect(FileTrust.problem(path, limit: 1 << 20) == "it is writable by its group (mode 620)")
        chmod(path, 0o600)
        chmod(folder, 0o777)
        #expect(FileTrust.problem(path, limit: 1 << 20) == "\(folder) is writable by everyone (mode 777)")
        // Sticky is no excuse for the file's own folder: anyone could have made the file.
        chmod(folder, 0o1777)
        #expect(FileTrust.problem(path, limit: 1 << 20) != nil)
        chmod(folder, 0o700)
        if geteuid() == 0 {
            chown(path, 4242, 4242)
            #expect(FileTrust.problem(path, limit: 1 << 20) == "it is owned by another user (uid 4242)")
            chown(path, 0, 0)
            chown(folder, 4242, 4242)
            #expect(FileTrust.problem(path, limit: 1 << 20) == "\(folder) is owned by another user (uid 4242)")
            chown(folder, 0, 0)
        }
        #expect(throws: ToolError.self) { try FileTrust.read(folder + "/../" + (folder.split(separator: "/").last.map(String.init) ?? "") + "/config.yml", limit: 4) }
    }

    @Test func aSymlinkIsFollowedAndItsTargetChecked() throws {
        let (folder, path) = try file()
        let link = folder + "/link.yml"
        symlink(path, link)
        #expect(FileTrust.problem(link, limit: 1 << 20) == nil)
        #expect(try FileTrust.read(link, limit: 1 << 20) == Array("timeout: 5\n".utf8))
        chmod(path, 0o666)
        #expect(FileTrust.problem(link, limit: 1 << 20) == "it is writable by everyone (mode 666)")
        let dangling = folder + "/dangling.yml"
        symlink(folder + "/nothing", dangling)
        #expect(FileTrust.problem(dangling, limit: 1 << 20)?.hasPrefix("a symlink to nothing") == true)
    }

    /// Issue 46: a chain through another user's folder is refused wherever the link sits,
    /// and the path is resolved once: while the other user flips their link between their
    /// file and ours, no read ever returns their file.
    @Test(.enabled(if: geteuid() == 0, "needs root to make another user's folder"))
    func aChainThroughAnotherUsersFolderIsRefusedEvenWhileItFlips() throws {
        let (mine, real) = try file("server: http://mine\n")
        let other = TemporaryFolders.make("trust-other")
        chown(other, 4242, 4242)
        let theirs = other + "/theirs.yml"
        _ = FileManager.default.createFile(atPath: theirs, contents: Data("server: http://theirs\n".utf8))
        chown(theirs, 4242, 4242)
        chmod(theirs, 0o644)
        symlink(real, other + "/l2")
        let config = mine + "/link.yml"
        symlink(other + "/l2", config)
        #expect(FileTrust.problem(config, limit: 1 << 20)?.contains("owned by another user") == true)
        #expect(throws: ToolError.self) { try FileTrust.read(config, limit: 1 << 20) }
        #expect(throws: ToolError.self) { try FileTrust.trustedLocation(config) }
        // The other user flips l2 as fast as they can while we read.
        let stop = Mutex(false)
        let flipper = Thread {
            var toTheirs = true
            while !stop.withLock({ $0 }) {
                symlink(toTheirs ? theirs : real, other + "/l2.new")
                rename(other + "/l2.new", other + "/l2")
                toTheirs.toggle()
            }
        }
        flipper.start()
        var used: [String] = []
        for _ in 0..<300 {
            if let bytes = try? FileTrust.read(config, limit: 1 << 20) { used.append(String(decoding: bytes, as: UTF8.self)) }
        }
        stop.withLock { $0 = true }
        #expect(!used.contains { $0.contains("theirs") }, "\(used.count) reads used a file")
        #expect(used.isEmpty)
    }

    /// A link followed through our own folders is fine; its target's folder is checked.
    @Test func aChainThroughOurFoldersIsFollowedAndEachFolderChecked() throws {
        let (mine, real) = try file()
        let middle = TemporaryFolders.make("trust-middle")
        chmod(middle, 0o700)
        symlink(real, middle + "/l2")
        symlink(middle + "/l2", mine + "/link.yml")
        #expect(FileTrust.problem(mine + "/link.yml", limit: 1 << 20) == nil)
        #expect(try FileTrust.trustedLocation(mine + "/link.yml") == (FileTrust.realPath(real) ?? real))
        chmod(middle, 0o770)
        #expect(FileTrust.problem(mine + "/link.yml", limit: 1 << 20)?.contains("writable by its group") == true)
        // A folder that is a link is followed and checked, for a store made in it.
        chmod(middle, 0o700)
        symlink(middle, mine + "/store-folder")
        #expect(FileTrust.folderProblem(mine + "/store-folder") == nil)
        #expect(try FileTrust.trustedLocation(mine + "/store-folder/new.sqlite") == (FileTrust.realPath(middle) ?? middle) + "/new.sqlite")
    }

    @Test func fifosDevicesAndLargeFilesAreRefused() throws {
        let folder = TemporaryFolders.make("trust")
        mkfifo(folder + "/fifo", 0o600)
        #expect(FileTrust.problem(folder + "/fifo", limit: 1 << 20) == "a FIFO, not a regular file")
        symlink("/dev/zero", folder + "/zero")
        #expect(FileTrust.problem(folder + "/zero", limit: 1 << 20) == "a device, not a regular file")
        let (_, path) = try file(String(repeating: "#", count: 2000))
        #expect(FileTrust.problem(path, limit: 1000) == "larger than 1000 bytes")
    }

    @Test func theConfigFileIsNotUsedAtAllWhenRefused() throws {
        let (_, path) = try file("pager: touch F; cat\nserver: http://a:b@c\n", mode: 0o666)
        let settings = Settings(tool: Tool("blogctl"), path: path)
        #expect(settings.values.isEmpty)
        #expect(settings.warnings == [path + ": it is writable by everyone (mode 666); not used"])
    }

    @Test func theConfigCommandShowsNoPassword() throws {
        let (_, path) = try file("server: http://alice:SeKrEt9@127.0.0.1:1/\nproxy: bob:PrOxY7@127.0.0.1:3128\n")
        let rows = ConfigCommand.rows(tool: Tool("condtest"), settings: Settings(tool: Tool("condtest"), path: path),
                                      environment: ["https_proxy": "http://carol:PaSs3@p:1"])
        let text = rows.flatMap { $0 }.joined(separator: " ")
        #expect(text.contains("http://alice:***@127.0.0.1:1/"))
        #expect(!text.contains("SeKrEt9") && !text.contains("PrOxY7"))
        let withEnvironment = ConfigCommand.rows(tool: Tool("condtest"), settings: Settings(tool: Tool("condtest"), path: path),
                                                 environment: ["http_proxy": "http://carol:PaSs3@p:1"])
        #expect(!withEnvironment.flatMap { $0 }.joined().contains("PaSs3"))
    }

    @Test func aSchemeIsOnlyWhereRFC3986PutsIt() {
        #expect("alice:SeKrEt9@127.0.0.1:3128/a://b".schemeEnd == nil)
        #expect(ServerURL.redacted("alice:SeKrEt9@127.0.0.1:3128/a://b") == "alice:***@127.0.0.1:3128/a://b")
        #expect("http://h".schemeEnd.map { String("http://h"[$0...]) } == "h")
        #expect("socks5h://h".schemeEnd != nil)
        #expect("1http://h".schemeEnd == nil)
    }
}
