import Testing
@testable import CoreKit
@testable import ToolboxKit

/// Issue 47: `--no-pager` is one rule for every command, taken anywhere before `--`, as git
/// takes it; after `--` it is an argument like any other.
@Suite struct NoPagerTests {
    @Test func takenAnywhereBeforeTheEndOfOptions() {
        #expect(ToolMain.withoutNoPager(["status"]) == nil)
        #expect(ToolMain.withoutNoPager(["--no-pager", "list"]) == ["list"])
        #expect(ToolMain.withoutNoPager(["status", "--no-pager", "--json"]) == ["status", "--json"])
        #expect(ToolMain.withoutNoPager(["show", "--", "--no-pager"]) == nil)
        #expect(ToolMain.withoutNoPager(["show", "--no-pager", "--", "--no-pager"]) == ["show", "--", "--no-pager"])
    }
}
