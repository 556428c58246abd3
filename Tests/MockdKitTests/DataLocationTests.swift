import Testing
@testable import MockdKit

/// Issue 67: mockd's installed data, from the one binary in libexec or a copy in bin, the
/// path split by bytes (a folder whose name starts with a combining mark is still a folder).
@Suite struct DataLocationTests {
    @Test func theInstalledDataIsBesideEitherLayout() {
        #expect(DataLocation.installedData(beside: "/usr/libexec/toolbox/toolbox") == ["/usr/share/toolbox/data"])
        #expect(DataLocation.installedData(beside: "/opt/t/bin/mockd") == ["/opt/t/share/toolbox/data"])
        #expect(DataLocation.installedData(beside: "/opt/\u{301}x/libexec/toolbox/toolbox") == ["/opt/\u{301}x/share/toolbox/data"])
        #expect(DataLocation.installedData(beside: "/a/\u{301}bin/mockd") == ["/a/share/toolbox/data"])
        #expect(DataLocation.installedData(beside: "mockd").isEmpty)
    }
}
