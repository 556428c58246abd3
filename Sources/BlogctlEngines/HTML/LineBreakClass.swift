/// Where a line may break in text without spaces, after Unicode's line breaking algorithm
/// (UAX #14) as far as a terminal page needs it: between ideographs, kana and other wide
/// characters (class ID), never before closing punctuation, small kana or the prolonged sound
/// mark (CL, CP, NS, EX, IS), never after opening punctuation (OP). Text with spaces breaks at
/// its spaces, as before; Hangul, written with spaces, breaks there too (its syllables are wide
/// and ID as well, so a run without spaces still wraps).
package enum LineBreakClass: Equatable {
    /// Latin letters and everything else that breaks only at spaces (AL and its kin).
    case other
    /// A wide character that allows a break before and after it (ID).
    case ideographic
    /// Opening punctuation of CJK text (`「`, `（`): no break after it.
    case opening
    /// Closing punctuation, narrow (`)`, `,`, `.`, `!`): no break before it.
    case closing
    /// Closing punctuation of CJK text (`。`, `」`, `ー`, small kana): no break before it, a
    /// break allowed after it.
    case closingWide

    /// The class of an ASCII byte that is not a space.
    static func of(ascii byte: UInt8) -> LineBreakClass {
        switch byte {
        case UInt8(ascii: ")"), UInt8(ascii: "]"), UInt8(ascii: "}"), UInt8(ascii: ","), UInt8(ascii: "."),
             UInt8(ascii: "!"), UInt8(ascii: "?"), UInt8(ascii: ":"), UInt8(ascii: ";"), UInt8(ascii: "%"):
            return .closing
        default:
            return .other
        }
    }

    /// The class of a scalar beyond ASCII, whose display width is `width`.
    static func of(_ scalar: Unicode.Scalar, width: Int) -> LineBreakClass {
        switch scalar.value {
        case 0x3008, 0x300A, 0x300C, 0x300E, 0x3010, 0x3014, 0x3016, 0x3018, 0x301A, 0x301D,
             0xFF08, 0xFF3B, 0xFF5B, 0xFF5F, 0xFF62:
            return .opening
        case 0x3001, 0x3002, 0xFF0C, 0xFF0E,  // 、。，．
             0x3009, 0x300B, 0x300D, 0x300F, 0x3011, 0x3015, 0x3017, 0x3019, 0x301B, 0x301E, 0x301F,
             0xFF09, 0xFF3D, 0xFF5D, 0xFF60, 0xFF63,
             0x3005, 0x303B, 0x309D, 0x309E, 0x30FB, 0x30FC, 0x30FD, 0x30FE,  // 々 ゝ ・ ー ヽ
             0x3041, 0x3043, 0x3045, 0x3047, 0x3049, 0x3063, 0x3083, 0x3085, 0x3087, 0x308E, 0x3095, 0x3096,
             0x30A1, 0x30A3, 0x30A5, 0x30A7, 0x30A9, 0x30C3, 0x30E3, 0x30E5, 0x30E7, 0x30EE, 0x30F5, 0x30F6,
             0x31F0...0x31FF,  // small kana
             0xFF01, 0xFF1A, 0xFF1B, 0xFF1F,  // ！：；？
             0xFF67...0xFF70, 0xFF9E, 0xFF9F:  // halfwidth small kana, ｰ, sound marks
            return width == 2 ? .closingWide : .closing
        case 0x2019, 0x201D, 0x00BB, 0x2026:  // ’ ” » …: no break before them either
            return .closing
        default:
            return width == 2 ? .ideographic : .other
        }
    }

    /// Whether a line may break between a character of class `before` and one of `after`,
    /// with no space between them.
    static func mayBreak(_ before: LineBreakClass, _ after: LineBreakClass) -> Bool {
        if after == .closing || after == .closingWide || before == .opening { return false }
        return before == .ideographic || before == .closingWide || after == .ideographic || after == .opening
    }
}
