#if canImport(Glibc)
import Glibc
#endif
import CLibXML2
import ToolboxKit

/// An HTML document parsed by libxml2's HTML parser, forgiving as browsers are (RECOVER,
/// NOERROR, NOWARNING, NONET) and never with XML_PARSE_HUGE, so libxml2's own limits on depth
/// and text size stay in force against hostile input.
final class HTMLDocument {
    private let document: htmlDocPtr

    static let options: Int32 = Int32(HTML_PARSE_RECOVER.rawValue | HTML_PARSE_NOERROR.rawValue
        | HTML_PARSE_NOWARNING.rawValue | HTML_PARSE_NONET.rawValue | HTML_PARSE_COMPACT.rawValue)

    /// Parses UTF-8 HTML; nil when libxml2 makes no document of it at all.
    init?(_ html: [UInt8]) {
        guard html.count < Int(Int32.max) else { return nil }
        let parsed = html.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { chars in
                htmlReadMemory(chars.baseAddress, Int32(chars.count), nil, "UTF-8", Self.options)
            }
        }
        guard let parsed else { return nil }
        document = parsed
    }

    deinit { xmlFreeDoc(document) }

    /// What a visitor sees while the tree is walked in document order.
    enum Event {
        case enter(HTMLNode)
        case exit(HTMLNode)
        case text(UnsafeBufferPointer<UInt8>)
    }

    /// Walks the tree without recursion (100,000 nested elements must not exhaust a stack).
    /// `visit` returns false for an `.enter` whose children should be skipped; every entered
    /// element gets its `.exit`.
    func walk(_ visit: (Event) -> Bool) {
        guard let root = xmlDocGetRootElement(document) else { return }
        var node: xmlNodePtr? = root
        while let current = node {
            var descend = false
            switch current.pointee.type {
            case XML_ELEMENT_NODE:
                descend = visit(.enter(HTMLNode(current)))
                if !descend { node = nextAfter(current, root: root, visit: visit); continue }
            case XML_TEXT_NODE, XML_CDATA_SECTION_NODE:
                if let content = current.pointee.content {
                    _ = visit(.text(UnsafeBufferPointer(start: content, count: strlen(content))))
                }
            default:
                break
            }
            if descend, let child = current.pointee.children {
                node = child
            } else {
                if current.pointee.type == XML_ELEMENT_NODE { _ = visit(.exit(HTMLNode(current))) }
                node = nextAfter(current, root: root, visit: visit)
            }
        }
    }

    /// The next node in document order after `node`'s subtree, leaving the parents it climbs out of.
    private func nextAfter(_ node: xmlNodePtr, root: xmlNodePtr, visit: (Event) -> Bool) -> xmlNodePtr? {
        var current = node
        while true {
            if current == root { return nil }
            if let next = current.pointee.next { return next }
            guard let parent = current.pointee.parent, parent.pointee.type == XML_ELEMENT_NODE else { return nil }
            current = parent
            _ = visit(.exit(HTMLNode(current)))
        }
    }
}

/// An element of an `HTMLDocument`, valid only during the walk.
struct HTMLNode {
    let pointer: xmlNodePtr

    init(_ pointer: xmlNodePtr) { self.pointer = pointer }

    var tag: HTMLTag { HTMLTag.named(pointer.pointee.name) }

    /// The value of attribute `name`, sanitised, or nil.
    func attribute(_ name: String) -> String? {
        var attribute = pointer.pointee.properties
        while let current = attribute {
            if let attributeName = current.pointee.name, String(cString: attributeName) == name {
                var value = ""
                var child = current.pointee.children
                while let text = child {
                    if let content = text.pointee.content { value += String(cString: content) }
                    child = text.pointee.next
                }
                return Terminal.sanitizeField(value)
            }
            attribute = current.pointee.next
        }
        return nil
    }

    /// Element children, for counting list items.
    var elementChildren: Int {
        var count = 0
        var child = pointer.pointee.children
        while let current = child {
            if current.pointee.type == XML_ELEMENT_NODE { count += 1 }
            child = current.pointee.next
        }
        return count
    }
}
