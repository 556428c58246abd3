/// Scripts written without spaces between words (Chinese, Japanese, Thai, Lao, Khmer, Myanmar,
/// and Korean, whose particles join the word before): the word tokenizer of the search index
/// sees a whole run of them as one word, so `ラーメン` inside `東京のラーメン店` was never found.
/// Pictographs (emoji) are runs of their own too: the word tokenizer drops them.
/// Those runs are indexed again by trigrams (`SearchIndex`'s `grams` table), and a word holding
/// such a character is looked for there.
public enum UnspacedScript {
    /// Whether `scalar` is in one of those scripts.
    public static func contains(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x0E00...0x0EFF,  // Thai, Lao
             0x1000...0x109F,  // Myanmar
             0x1100...0x11FF,  // Hangul Jamo
             0x1780...0x17FF,  // Khmer
             0x3005...0x3007, 0x3021...0x3029, 0x3031...0x3035,  // ideographic marks and numbers
             0x3040...0x30FF,  // Hiragana, Katakana (with ー)
             0x3130...0x318F,  // Hangul compatibility Jamo
             0x31F0...0x31FF,  // Katakana extensions
             0x3400...0x4DBF,  // CJK extension A
             0x4E00...0x9FFF,  // CJK unified ideographs
             0xA960...0xA97F, 0xAC00...0xD7FF,  // Hangul
             0xF900...0xFAFF,  // CJK compatibility ideographs
             0xFF66...0xFF9F,  // halfwidth Katakana
             0x20000...0x3134F:  // CJK extensions B to G
            true
        case 0x2000...0x2BFF, 0x1F000...0x1FAFF:
            // Pictographs (emoji), which the word tokenizer takes for separators: found by
            // substring too, so that `search 🎉` finds a title holding it.
            scalar.properties.isEmoji
        default:
            false
        }
    }

    public static func contains(_ text: some StringProtocol) -> Bool { text.unicodeScalars.contains(where: contains) }

    /// The runs of `text` in those scripts, a space between runs: what the trigram index
    /// holds (nothing at all for a text without them, so English posts cost it nothing).
    public static func runs(_ text: String) -> String {
        guard contains(text) else { return "" }
        var result = String.UnicodeScalarView()
        var inRun = false
        for scalar in text.unicodeScalars {
            if contains(scalar) {
                if !inRun, !result.isEmpty { result.append(" ") }
                result.append(scalar)
                inRun = true
            } else {
                inRun = false
            }
        }
        return String(result)
    }
}
