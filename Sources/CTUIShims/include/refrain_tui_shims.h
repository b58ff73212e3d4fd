#ifndef REFRAIN_TUI_SHIMS_H
#define REFRAIN_TUI_SHIMS_H
#include <stdint.h>
#include <wchar.h>

/* One-line forwards for what Swift cannot see in ncurses: macros, globals, wcwidth. */
void *refrain_stdscr(void);
int refrain_rows(void);
int refrain_cols(void);
int refrain_wcwidth(uint32_t scalar);
int refrain_set_utf8_ctype(void);
int refrain_has_colors(void);
unsigned int refrain_attr(int bold, int reverse, int underline, int dim);
int refrain_put(int y, int x, const wchar_t *text, int count, unsigned int attrs, int pair);
int refrain_get_key(uint32_t *out, int *is_function_key);
int refrain_key_code(const char *name);
/* Mouse reporting on or off; 1 when the terminal gave what was asked. */
int refrain_set_mouse(int on);
/* The mouse event behind KEY_MOUSE: 1 wheel up, 2 wheel down, 3 left press, 0 other. */
int refrain_read_mouse(int *x, int *y);
/* The colours terminfo says the terminal has (0 when it does not say). */
int refrain_colors(void);
/* Marks screen rows as garbled, so the next update repaints them whole (after a picture
   drawn outside curses went away). */
int refrain_redraw_lines(int y, int count);
#endif
