import CoreKit

/// Bold, underline and code as the markup opens and closes them: how deep each is, for the
/// terminal's styles, and Markdown's markers around their runs (an empty run gets none).
struct InlineStyle {
    private var boldDepth = 0
    private var underlineDepth = 0
    /// Whether styles are drawn (a terminal): otherwise `current` is always plain.
    let styled: Bool

    init(styled: Bool) { self.styled = styled }

    var current: TextStyle {
        guard styled else { return [] }
        var style: TextStyle = []
        if boldDepth > 0 { style.insert(.bold) }
        if underlineDepth > 0 { style.insert(.underline) }
        return style
    }

    /// A heading or a header cell: bold, with no Markdown marker of its own.
    mutating func bold(_ on: Bool) { boldDepth += on ? 1 : -1 }

    /// `marked`: Markdown's markers are written (not inside `pre`).
    mutating func open(_ tag: HTMLTag, in inline: inout InlineText, marked: Bool) {
        switch tag {
        case .bold:
            if marked { inline.prefixNext("**") }
            boldDepth += 1
        case .underline:
            if marked { inline.prefixNext("*") }
            underlineDepth += 1
        default:  // code
            if marked {
                inline.prefixNext("`")
                inline.escapesMarkdown = false
            }
        }
    }

    mutating func close(_ tag: HTMLTag, in inline: inout InlineText, marked: Bool) {
        switch tag {
        case .bold:
            boldDepth -= 1
            if marked && !inline.cancelPrefix() { inline.appendGlued("**") }
        case .underline:
            underlineDepth -= 1
            if marked && !inline.cancelPrefix() { inline.appendGlued("*") }
        default:  // code
            if marked {
                inline.escapesMarkdown = true
                if !inline.cancelPrefix() { inline.appendGlued("`") }
            }
        }
    }
}
