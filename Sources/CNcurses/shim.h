// ncursesw for ScreenKit: the wide-character API, and small wrappers for what ncurses
// defines as function-like macros (Swift imports functions and simple constants only).
#define _XOPEN_SOURCE_EXTENDED 1
#include <locale.h>
#include <wchar.h>
#include <ncursesw/ncurses.h>

static inline attr_t sk_attr_bold(void) { return A_BOLD; }
static inline attr_t sk_attr_reverse(void) { return A_REVERSE; }
static inline attr_t sk_attr_dim(void) { return A_DIM; }
static inline attr_t sk_attr_underline(void) { return A_UNDERLINE; }
static inline attr_t sk_attr_normal(void) { return A_NORMAL; }
static inline int sk_rows(void) { return getmaxy(stdscr); }
static inline int sk_columns(void) { return getmaxx(stdscr); }
static inline int sk_key_code_yes(void) { return KEY_CODE_YES; }
static inline int sk_key_f(int n) { return KEY_F(n); }

// Mouse: a left press or click selects, the wheel scrolls.
static inline mmask_t sk_mouse_mask(void) {
    return BUTTON1_PRESSED | BUTTON1_CLICKED | BUTTON4_PRESSED | BUTTON5_PRESSED;
}
static inline int sk_is_left(mmask_t state) { return (state & (BUTTON1_PRESSED | BUTTON1_CLICKED)) != 0; }
static inline int sk_is_wheel_up(mmask_t state) { return (state & BUTTON4_PRESSED) != 0; }
static inline int sk_is_wheel_down(mmask_t state) { return (state & BUTTON5_PRESSED) != 0; }

// One run of cells in one style at a position: the only drawing call ScreenKit makes.
static inline void sk_put(int row, int column, const wchar_t *text, int count, attr_t attributes, short pair) {
    wattr_set(stdscr, attributes, pair, NULL);
    mvwaddnwstr(stdscr, row, column, text, count);
}

// stdscr, stdin and stdout are C globals, which strict concurrency will not let Swift touch;
// only the screen's one thread calls these.
static inline SCREEN *sk_newterm(void) { return newterm(NULL, stdout, stdin); }
static inline void sk_setup_keys(void) { keypad(stdscr, TRUE); nodelay(stdscr, TRUE); }
static inline int sk_get_wch(wint_t *character) { return wget_wch(stdscr, character); }
static inline void sk_clear_row(int row) { wmove(stdscr, row, 0); wclrtoeol(stdscr); }
static inline void sk_show(void) { wnoutrefresh(stdscr); doupdate(); }
// After endwin (Ctrl-Z, then fg): back to the program's modes, the whole screen drawn again.
static inline void sk_resume(void) { clearok(curscr, TRUE); wrefresh(stdscr); }
