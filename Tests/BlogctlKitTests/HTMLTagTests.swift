import Testing
@testable import BlogctlKit
@testable import BlogctlEngines

/// Issue 46: element names are looked up without hashing (binary search over packed names);
/// every known name finds its tag, and any other name, long or short, is an inline container.
@Suite struct HTMLTagTests {
    @Test func everyNameFindsItsTagAndOthersAreInline() {
        for (name, tag) in HTMLTag.byName {
            let found = Array(name.utf8 + [0]).withUnsafeBufferPointer { HTMLTag.named($0.baseAddress) }
            #expect(found == tag, "\(name)")
        }
        for other in ["span", "x-custom", "a1", "bb", "", "figcaptionx", "blockquot", "zzzzzzzz"] {
            let found = Array(other.utf8 + [0]).withUnsafeBufferPointer { HTMLTag.named($0.baseAddress) }
            #expect(found == .inline, "\(other)")
        }
        #expect(HTMLTag.named(nil) == .inline)
        // The scanner's raw-text names, written as constants, are the names packed.
        #expect(MarkupScanner.script == HTMLTag.packed(Array("script".utf8)[...]))
        #expect(MarkupScanner.style == HTMLTag.packed(Array("style".utf8)[...]))
        #expect(MarkupScanner.scriptEnd == HTMLTag.packed(Array("</script".utf8)[...]))
        #expect(MarkupScanner.styleEnd == HTMLTag.packed(Array("</style".utf8)[...]))
    }
}
