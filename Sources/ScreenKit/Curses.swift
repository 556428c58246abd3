import CNcurses
import CoreKit

/// ncursesw, opened when the first screen starts: a command that draws no screen (every
/// `--version`, every completion, every pipe) never loads it, nor tinfo behind it. The
/// functions are those `CursesTerminal` calls, typed by the header (shim.h).
struct Curses: @unchecked Sendable {
    /// The library, opened once for the process; the error is the loader's.
    static let shared: Result<Curses, SharedLibraryError> = Result { () throws(SharedLibraryError) in
        try Curses(SharedLibrary("libncursesw.so.6"))
    }

    let newterm: sk_newterm_f
    let set_term: sk_set_term_f
    let delscreen: sk_delscreen_f
    let endwin: sk_endwin_f
    let set_escdelay: sk_set_escdelay_f
    let raw: sk_raw_f
    let noecho: sk_noecho_f
    let nonl: sk_nonl_f
    let keypad: sk_keypad_f
    let nodelay: sk_nodelay_f
    let curs_set: sk_curs_set_f
    let mousemask: sk_mousemask_f
    let mouseinterval: sk_mouseinterval_f
    let getmouse: sk_getmouse_f
    let has_colors: sk_has_colors_f
    let start_color: sk_start_color_f
    let use_default_colors: sk_use_default_colors_f
    let init_pair: sk_init_pair_f
    let getmaxy: sk_getmaxy_f
    let getmaxx: sk_getmaxx_f
    let resizeterm: sk_resizeterm_f
    let wget_wch: sk_wget_wch_f
    let wmove: sk_wmove_f
    let wclrtoeol: sk_wclrtoeol_f
    let wattr_set: sk_wattr_set_f
    let waddnwstr: sk_waddnwstr_f
    let wnoutrefresh: sk_wnoutrefresh_f
    let doupdate: sk_doupdate_f
    let clearok: sk_clearok_f
    let wrefresh: sk_wrefresh_f
    /// ncurses' globals: the current screen's window, and what the terminal shows.
    private let standardScreen: UnsafeMutablePointer<UnsafeMutablePointer<WINDOW>?>
    private let currentScreen: UnsafeMutablePointer<UnsafeMutablePointer<WINDOW>?>

    private init(_ library: SharedLibrary) throws(SharedLibraryError) {
        newterm = try library.function("newterm")
        set_term = try library.function("set_term")
        delscreen = try library.function("delscreen")
        endwin = try library.function("endwin")
        set_escdelay = try library.function("set_escdelay")
        raw = try library.function("raw")
        noecho = try library.function("noecho")
        nonl = try library.function("nonl")
        keypad = try library.function("keypad")
        nodelay = try library.function("nodelay")
        curs_set = try library.function("curs_set")
        mousemask = try library.function("mousemask")
        mouseinterval = try library.function("mouseinterval")
        getmouse = try library.function("getmouse")
        has_colors = try library.function("has_colors")
        start_color = try library.function("start_color")
        use_default_colors = try library.function("use_default_colors")
        init_pair = try library.function("init_pair")
        getmaxy = try library.function("getmaxy")
        getmaxx = try library.function("getmaxx")
        resizeterm = try library.function("resizeterm")
        wget_wch = try library.function("wget_wch")
        wmove = try library.function("wmove")
        wclrtoeol = try library.function("wclrtoeol")
        wattr_set = try library.function("wattr_set")
        waddnwstr = try library.function("waddnwstr")
        wnoutrefresh = try library.function("wnoutrefresh")
        doupdate = try library.function("doupdate")
        clearok = try library.function("clearok")
        wrefresh = try library.function("wrefresh")
        standardScreen = try library.variable("stdscr", of: UnsafeMutablePointer<WINDOW>?.self)
        currentScreen = try library.variable("curscr", of: UnsafeMutablePointer<WINDOW>?.self)
    }

    /// The window of the current screen (set_term changes it).
    var stdscr: UnsafeMutablePointer<WINDOW>? { standardScreen.pointee }
    var curscr: UnsafeMutablePointer<WINDOW>? { currentScreen.pointee }
}
