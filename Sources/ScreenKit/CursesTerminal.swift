#if canImport(Glibc)
import Glibc
#endif
import CNcurses
import CoreKit

/// The terminal, through ncursesw: the only file in the toolbox that calls ncurses. terminfo
/// knows the terminal's sequences, ncurses decodes keys and mouse reports and sends only what
/// changed between frames. Used by the one thread that owns the screen, and by nothing else.
final class CursesTerminal {
    /// What reading the keyboard gave.
    enum Input: Equatable {
        case key(KeyPress)
        case interrupt
        case resize
        /// Ctrl-Z: the terminal is in raw mode, so the key arrives here, not as SIGTSTP.
        case suspend
    }

    private let curses: Curses
    private let screen: OpaquePointer
    private let colors: Bool
    private var ended = false

    /// Takes over the terminal: raw keys, no echo, keypad and mouse decoding, no cursor, the
    /// alternate screen. `color` false (NO_COLOR, not a colour terminal) leaves attributes only.
    init(color: Bool) throws(ScreenError) {
        guard isatty(0) == 1, isatty(1) == 1 else { throw .notATerminal }
        // A terminal that cannot move the cursor draws a screen as a scroll of lines, stuck on
        // its first frame: refused in one line, as less warns "terminal is not fully
        // functional" (issue 47).
        if let problem = Self.unfitTerminal(getenv("TERM").map { String(cString: $0) }) { throw .cannotStart(problem) }
        let curses: Curses
        do { curses = try Curses.shared.get() } catch { throw .cannotStart(error.message) }
        self.curses = curses
        setlocale(LC_ALL, "")
        // A locale that cannot show more than ASCII (LC_ALL=C): one `?` a character, in one
        // cell, measured so (issue 47); ncurses would leave them blank and rows would shift.
        TextWidth.asciiOnly = !Self.localeIsUTF8()
        TextWidth.cursesCells = true
        guard let screen = curses.newterm(nil, sk_stdout(), sk_stdin()) else {
            let name = getenv("TERM").map { String(cString: $0) } ?? ""
            throw .cannotStart("the terminal type \"\(name)\" is unknown")
        }
        self.screen = screen
        _ = curses.set_term(screen)
        // Esc alone is told from the start of a sequence after 25 ms, not ncurses' second.
        if getenv("ESCDELAY") == nil { _ = curses.set_escdelay(25) }
        _ = curses.raw()
        _ = curses.noecho()
        _ = curses.nonl()
        _ = curses.keypad(curses.stdscr, true)
        _ = curses.nodelay(curses.stdscr, true)
        _ = curses.curs_set(0)
        _ = curses.mousemask(sk_mouse_mask(), nil)
        _ = curses.mouseinterval(0)
        colors = color && curses.has_colors()
        if colors {
            _ = curses.start_color()
            _ = curses.use_default_colors()
            for color in Style.Color.allCases where color != .none {
                _ = curses.init_pair(Int16(color.rawValue), Self.cursesColor(color), -1)
            }
        }
    }

    deinit { end() }

    /// Why a terminal of type `term` cannot show a screen (unset, empty, `dumb`), or nil.
    static func unfitTerminal(_ term: String?) -> String? {
        guard let term, !term.isEmpty else { return "TERM is not set; set it to your terminal's type (xterm-256color)" }
        guard term != "dumb" else {
            return "the terminal \"dumb\" cannot move the cursor; set TERM to your terminal's type (xterm-256color)"
        }
        return nil
    }

    /// Whether the locale `setlocale` chose writes UTF-8 (`nl_langinfo(CODESET)`).
    static func localeIsUTF8() -> Bool {
        guard let codeset = nl_langinfo(nl_item(CODESET)) else { return false }
        let name = String(cString: codeset).uppercased()
        return name == "UTF-8" || name == "UTF8"
    }

    var size: (rows: Int, columns: Int) { (Int(curses.getmaxy(curses.stdscr)), Int(curses.getmaxx(curses.stdscr))) }

    /// Restores the terminal as it was: normal screen, cursor, cooked mode. Once.
    func end() {
        guard !ended else { return }
        ended = true
        _ = curses.endwin()
        curses.delscreen(screen)
    }

    /// Ctrl-Z, as less and tig do it: the terminal as the shell had it, the process stopped
    /// (SIGTSTP, whose default stops it); on `fg` (SIGCONT) the screen is taken back and
    /// drawn whole again, at the terminal's size then.
    func suspend() {
        _ = curses.endwin()
        // Raised on this thread with SIGTSTP let through: the threads Dispatch made may hold
        // it blocked, and a signal every thread blocks stays pending instead of stopping us.
        var set = sigset_t()
        sigemptyset(&set)
        sigaddset(&set, SIGTSTP)
        pthread_sigmask(SIG_UNBLOCK, &set, nil)
        signal(SIGTSTP, SIG_DFL)
        raise(SIGTSTP)
        // Back to the program's modes, the whole screen drawn again.
        _ = curses.clearok(curses.curscr, true)
        _ = curses.wrefresh(curses.stdscr)
        resize()
    }

    /// Follows a SIGWINCH: asks the terminal its size and resizes ncurses' screens.
    func resize() {
        var size = winsize()
        guard ioctl(1, UInt(TIOCGWINSZ), &size) == 0, size.ws_row > 0, size.ws_col > 0 else { return }
        _ = curses.resizeterm(Int32(size.ws_row), Int32(size.ws_col))
    }

    /// Every key waiting (none when nothing is).
    func readInput() -> [Input] {
        var inputs: [Input] = []
        var character: wint_t = 0
        while true {
            let result = curses.wget_wch(curses.stdscr, &character)
            if result == ERR { break }
            if result == sk_key_code_yes() {
                if let input = functionKey(Int32(character)) { inputs.append(input) }
            } else if character == 0x03 {
                inputs.append(.interrupt)
            } else if character == 0x1A {
                inputs.append(.suspend)
            } else if let key = KeyPress.fromCharacter(UInt32(character)) {
                inputs.append(.key(key))
            }
        }
        return inputs
    }

    private func functionKey(_ code: Int32) -> Input? {
        switch code {
        case KEY_UP: return .key(.up)
        case KEY_DOWN: return .key(.down)
        case KEY_LEFT: return .key(.left)
        case KEY_RIGHT: return .key(.right)
        case KEY_HOME: return .key(.home)
        case KEY_END: return .key(.end)
        case KEY_PPAGE: return .key(.pageUp)
        case KEY_NPAGE: return .key(.pageDown)
        case KEY_BACKSPACE: return .key(.backspace)
        case KEY_DC: return .key(.delete)
        case KEY_BTAB: return .key(.backTab)
        case KEY_ENTER: return .key(.enter)
        case KEY_RESIZE: return .resize
        case KEY_MOUSE:
            var event = MEVENT()
            guard curses.getmouse(&event) == OK else { return nil }
            if sk_is_left(event.bstate) != 0 { return .key(.click(row: Int(event.y), column: Int(event.x))) }
            if sk_is_wheel_up(event.bstate) != 0 { return .key(.wheelUp) }
            if sk_is_wheel_down(event.bstate) != 0 { return .key(.wheelDown) }
            return nil
        default:
            for number in 1...24 where code == sk_key_f(Int32(number)) { return .key(.function(number)) }
            return nil
        }
    }

    /// Draws `canvas` and shows it: ncurses compares with what is on the terminal and sends
    /// only the difference.
    func draw(_ canvas: Canvas) {
        let window = curses.stdscr
        for row in 0..<canvas.rows {
            _ = curses.wmove(window, Int32(row), 0)
            _ = curses.wclrtoeol(window)
            for run in canvas.runs(of: row) {
                let text = TextWidth.asciiOnly ? TextWidth.shownInASCII(run.text) : run.text
                let wide = text.unicodeScalars.map { wchar_t(bitPattern: $0.value) }
                let (attributes, pair) = cursesStyle(run.style)
                _ = curses.wattr_set(window, attributes, pair, nil)
                guard curses.wmove(window, Int32(row), Int32(run.column)) != ERR else { continue }
                wide.withUnsafeBufferPointer { buffer in
                    _ = curses.waddnwstr(window, buffer.baseAddress, Int32(buffer.count))
                }
            }
        }
        _ = curses.wnoutrefresh(window)
        _ = curses.doupdate()
    }

    private func cursesStyle(_ style: Style) -> (attr_t, Int16) {
        var attributes = sk_attr_normal()
        if style.bold { attributes |= sk_attr_bold() }
        if style.reverse { attributes |= sk_attr_reverse() }
        if style.dim { attributes |= sk_attr_dim() }
        if style.underline { attributes |= sk_attr_underline() }
        return (attributes, colors ? Int16(style.color.rawValue) : 0)
    }

    private static func cursesColor(_ color: Style.Color) -> Int16 {
        switch color {
        case .none: -1
        case .red: Int16(COLOR_RED)
        case .green: Int16(COLOR_GREEN)
        case .yellow: Int16(COLOR_YELLOW)
        case .blue: Int16(COLOR_BLUE)
        case .magenta: Int16(COLOR_MAGENTA)
        case .cyan: Int16(COLOR_CYAN)
        }
    }
}
