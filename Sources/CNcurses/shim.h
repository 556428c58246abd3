// ncursesw for ScreenKit: the wide-character API's declarations and constants. The library
// itself is not linked: ScreenKit opens it when a screen starts (Curses.swift), so that every
// other command starts without loading ncursesw and tinfo. Nothing here may call ncurses.
#define _XOPEN_SOURCE_EXTENDED 1
#include <locale.h>
#include <stdio.h>
#include <wchar.h>
#include <ncursesw/ncurses.h>

// What ncurses defines as function-like macros over constants (Swift imports simple constants only).
static inline attr_t sk_attr_bold(void) { return A_BOLD; }
static inline attr_t sk_attr_reverse(void) { return A_REVERSE; }
static inline attr_t sk_attr_dim(void) { return A_DIM; }
static inline attr_t sk_attr_underline(void) { return A_UNDERLINE; }
static inline attr_t sk_attr_normal(void) { return A_NORMAL; }
static inline int sk_key_code_yes(void) { return KEY_CODE_YES; }
static inline int sk_key_f(int n) { return KEY_F(n); }

// Mouse: a left press or click selects, the wheel scrolls.
static inline mmask_t sk_mouse_mask(void) {
    return BUTTON1_PRESSED | BUTTON1_CLICKED | BUTTON4_PRESSED | BUTTON5_PRESSED;
}
static inline int sk_is_left(mmask_t state) { return (state & (BUTTON1_PRESSED | BUTTON1_CLICKED)) != 0; }
static inline int sk_is_wheel_up(mmask_t state) { return (state & BUTTON4_PRESSED) != 0; }
static inline int sk_is_wheel_down(mmask_t state) { return (state & BUTTON5_PRESSED) != 0; }

// stdin and stdout are C globals, which strict concurrency will not let Swift touch; only the
// screen's one thread calls these.
static inline FILE *sk_stdin(void) { return stdin; }
static inline FILE *sk_stdout(void) { return stdout; }

// The type of each ncurses function ScreenKit calls, taken from its declaration above, so the
// pointers Curses.swift looks up cannot disagree with the header. (`&f` in __typeof__ is not
// evaluated: it names no symbol the linker would look for.)
#define SK_FUNCTION(name) typedef __typeof__(&name) sk_##name##_f;
SK_FUNCTION(newterm)
SK_FUNCTION(set_term)
SK_FUNCTION(delscreen)
SK_FUNCTION(endwin)
SK_FUNCTION(set_escdelay)
SK_FUNCTION(raw)
SK_FUNCTION(noecho)
SK_FUNCTION(nonl)
SK_FUNCTION(keypad)
SK_FUNCTION(nodelay)
SK_FUNCTION(curs_set)
SK_FUNCTION(mousemask)
SK_FUNCTION(mouseinterval)
SK_FUNCTION(getmouse)
SK_FUNCTION(has_colors)
SK_FUNCTION(start_color)
SK_FUNCTION(use_default_colors)
SK_FUNCTION(init_pair)
SK_FUNCTION(getmaxy)
SK_FUNCTION(getmaxx)
SK_FUNCTION(resizeterm)
SK_FUNCTION(wget_wch)
SK_FUNCTION(wmove)
SK_FUNCTION(wclrtoeol)
SK_FUNCTION(wattr_set)
SK_FUNCTION(waddnwstr)
SK_FUNCTION(wnoutrefresh)
SK_FUNCTION(doupdate)
SK_FUNCTION(clearok)
SK_FUNCTION(wrefresh)
#undef SK_FUNCTION
