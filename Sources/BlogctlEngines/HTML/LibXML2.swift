internal import CLibXML2
import CoreKit

/// libxml2, opened when the first HTML body is rendered: every other start of blogctl (a
/// `--version`, a completion, `list`, `search`) skips loading it, and with it the ICU and
/// liblzma Debian's libxml2 links (bench/startup). The functions are HTMLStream's and FeedXMLStream's.
package struct LibXML2: @unchecked Sendable {
    static let soname = "libxml2.so.2"
    private static let shared: Result<LibXML2, SharedLibraryError> = Result { () throws(SharedLibraryError) in
        try LibXML2(SharedLibrary(soname))
    }

    /// The library, opened once for the process; a failure is the loader's message, as it
    /// would have said it at start.
    package static func loaded() throws(ToolError) -> LibXML2 {
        do { return try shared.get() } catch { throw .io(path: error.library, reason: error.reason) }
    }

    let htmlCreatePushParserCtxt: blog_htmlCreatePushParserCtxt_f
    let htmlCtxtUseOptions: blog_htmlCtxtUseOptions_f
    let htmlParseChunk: blog_htmlParseChunk_f
    let htmlFreeParserCtxt: blog_htmlFreeParserCtxt_f
    let xmlParserInputShrink: blog_xmlParserInputShrink_f
    let xml: XML

    /// The XML push parser's functions, FeedXMLStream's.
    package struct XML {
        let createPushParser: blog_xmlCreatePushParserCtxt_f
        let resetPush: blog_xmlCtxtResetPush_f
        let useOptions: blog_xmlCtxtUseOptions_f
        let parseChunk: blog_xmlParseChunk_f
        let free: blog_xmlFreeParserCtxt_f
        let stop: blog_xmlStopParser_f

        init(_ library: SharedLibrary) throws(SharedLibraryError) {
            createPushParser = try library.function("xmlCreatePushParserCtxt")
            resetPush = try library.function("xmlCtxtResetPush")
            useOptions = try library.function("xmlCtxtUseOptions")
            parseChunk = try library.function("xmlParseChunk")
            free = try library.function("xmlFreeParserCtxt")
            stop = try library.function("xmlStopParser")
        }
    }

    /// The library's version as a number (`xmlParserVersion`: 20914 for 2.9.14); 0 unknown.
    let version: Int

    private init(_ library: SharedLibrary) throws(SharedLibraryError) {
        let text = try? library.variable("xmlParserVersion", of: UnsafePointer<CChar>?.self).pointee
        version = text.flatMap { Int(String(cString: $0)) } ?? 0
        if let note = LibXML2Version.unproven(version) { Tool("blogctl").warn(note) }
        htmlCreatePushParserCtxt = try library.function("htmlCreatePushParserCtxt")
        htmlCtxtUseOptions = try library.function("htmlCtxtUseOptions")
        htmlParseChunk = try library.function("htmlParseChunk")
        htmlFreeParserCtxt = try library.function("htmlFreeParserCtxt")
        xmlParserInputShrink = try library.function("xmlParserInputShrink")
        xml = try XML(library)
        // Once, before any thread parses: libxml2 2.9 asks this of threaded programs, and
        // `shared` runs here only once (the search index renders bodies in parallel).
        let initialize: blog_xmlInitParser_f = try library.function("xmlInitParser")
        initialize()
    }
}
