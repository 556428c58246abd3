#if canImport(Glibc)
import Glibc
#endif
import ScreenKit

/// Whole frames as golden files: the text of every row between `|` marks (so trailing spaces
/// show), then the same rows as attributes, one character a cell: `.` plain, and a letter for
/// each other style, named in a legend (`a = bold reverse red`). A change to any cell of any
/// frame shows in the diff. `GOLDEN_UPDATE=1 swift test` writes the files anew. (No
/// `import Testing` here: this target is built by release builds too, where it is absent.)
public enum GoldenFrame {
    public static func render(_ canvas: Canvas) -> String {
        var styles: [Style] = []
        var text: [String] = []
        var attributes: [String] = []
        for row in 0..<canvas.rows {
            var line = ""
            var marks = ""
            for column in 0..<canvas.columns {
                let cell = canvas[row, column]
                if let character = cell.character { line.append(character) }
                if cell.style == .plain {
                    marks.append(".")
                } else {
                    if !styles.contains(cell.style) { styles.append(cell.style) }
                    marks.append(letter(styles.firstIndex(of: cell.style)!))
                }
            }
            text.append("|" + line + "|")
            attributes.append(marks)
        }
        let legend = styles.enumerated().map { "\(letter($0.offset)) = \(describe($0.element))" }
        return (["\(canvas.rows)x\(canvas.columns)"] + text + [""] + attributes + [""] + legend).joined(separator: "\n") + "\n"
    }

    static func letter(_ index: Int) -> Character {
        Character(Unicode.Scalar(UInt8(index < 26 ? 97 + index : 65 + (index - 26) % 26)))
    }

    static func describe(_ style: Style) -> String {
        var words: [String] = []
        if style.bold { words.append("bold") }
        if style.reverse { words.append("reverse") }
        if style.dim { words.append("dim") }
        if style.underline { words.append("underline") }
        if style.color != .none { words.append("\(style.color)") }
        return words.joined(separator: " ")
    }

    /// Whether `frame` is the golden file `name`.frame in the folder `Frames` beside the
    /// calling test file; says on stderr where they differ. A missing file is written (and
    /// false: check it and run again); `GOLDEN_UPDATE` writes them all anew.
    public static func matches(_ frame: String, named name: String, filePath: String = #filePath) -> Bool {
        let folder = String(filePath[..<(filePath.lastIndex(of: "/") ?? filePath.startIndex)]) + "/Frames"
        let path = folder + "/" + name + ".frame"
        let stored = read(path)
        if stored == nil || getenv("GOLDEN_UPDATE") != nil {
            mkdir(folder, 0o755)
            write(frame, to: path)
            if stored == nil { report("\(path) was missing and has been written; check it and run again") }
            return stored != nil
        }
        guard stored != frame else { return true }
        let old = stored!.split(separator: "\n", omittingEmptySubsequences: false)
        let new = frame.split(separator: "\n", omittingEmptySubsequences: false)
        var lines = ["frame \(name) differs from \(path) (GOLDEN_UPDATE=1 writes it anew):"]
        for index in 0..<max(old.count, new.count) where (index < old.count ? old[index] : "") != (index < new.count ? new[index] : "") {
            lines.append("  line \(index + 1) was: " + (index < old.count ? String(old[index]) : ""))
            lines.append("  line \(index + 1) now: " + (index < new.count ? String(new[index]) : ""))
        }
        report(lines.joined(separator: "\n"))
        return false
    }

    private static func report(_ text: String) {
        let bytes = Array((text + "\n").utf8)
        _ = Glibc.write(2, bytes, bytes.count)
    }

    private static func read(_ path: String) -> String? {
        guard let file = fopen(path, "r") else { return nil }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = fread(&buffer, 1, buffer.count, file)
            if count <= 0 { break }
            bytes += buffer[0..<count]
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    private static func write(_ text: String, to path: String) {
        guard let file = fopen(path, "w") else { return }
        defer { fclose(file) }
        let bytes = Array(text.utf8)
        _ = fwrite(bytes, 1, bytes.count, file)
    }
}
