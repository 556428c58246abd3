import Testing
@testable import CoreKit
@testable import ToolboxKit

@Suite struct PathsTests {
    @Test func specDefaultsUnderHome() {
        let paths = Paths(environment: ["HOME": "/home/u"])
        #expect(paths.cache(Tool("blogctl")) == "/home/u/.cache/blogctl")
        #expect(paths.data(Tool("devsync")) == "/home/u/.local/share/devsync")
        #expect(paths.config(Tool("x")) == "/home/u/.config/x")
    }

    @Test func variablesWinAndRelativeOnesAreIgnored() {
        let paths = Paths(environment: ["HOME": "/h", "XDG_CACHE_HOME": "/tmp/c", "XDG_DATA_HOME": "relative/d"])
        #expect(paths.cache(Tool("t")) == "/tmp/c/t")
        #expect(paths.data(Tool("t")) == "/h/.local/share/t")
    }
}
