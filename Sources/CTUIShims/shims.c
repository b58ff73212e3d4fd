#define _XOPEN_SOURCE 700
#define NCURSES_WIDECHAR 1
#include <locale.h>
#include <ncursesw/curses.h>
#include <string.h>
#include <wchar.h>
#include "refrain_tui_shims.h"

void *refrain_stdscr(void) { return stdscr; }
int refrain_rows(void) { return LINES; }
int refrain_cols(void) { return COLS; }
int refrain_wcwidth(uint32_t scalar) { return wcwidth((wchar_t)scalar); }

int refrain_set_utf8_ctype(void) {
  const char *current = setlocale(LC_CTYPE, NULL);
  if (current && (strstr(current, "UTF-8") || strstr(current, "utf8"))) return 1;
  return setlocale(LC_CTYPE, "C.UTF-8") != NULL;
}

int refrain_has_colors(void) { return has_colors(); }

unsigned int refrain_attr(int bold, int reverse, int underline, int dim) {
  attr_t a = A_NORMAL;
  if (bold) a |= A_BOLD;
  if (reverse) a |= A_REVERSE;
  if (underline) a |= A_UNDERLINE;
  if (dim) a |= A_DIM;
  return (unsigned int)a;
}

int refrain_put(int y, int x, const wchar_t *text, int count, unsigned int attrs, int pair) {
  wattr_set(stdscr, (attr_t)attrs, (short)pair, NULL);
  return mvwaddnwstr(stdscr, y, x, text, count);
}

int refrain_get_key(uint32_t *out, int *is_function_key) {
  wint_t ch = 0;
  int result = wget_wch(stdscr, &ch);
  *out = (uint32_t)ch;
  *is_function_key = (result == KEY_CODE_YES);
  return result == ERR ? 0 : 1;
}


int refrain_set_mouse(int on) {
  /* Presses only: a click is a press (no click-timing delay), the wheel is button 4 / 5. */
  mmask_t wanted = on ? (BUTTON1_PRESSED | BUTTON4_PRESSED | BUTTON5_PRESSED) : 0;
  if (on) mouseinterval(0);
  return mousemask(wanted, NULL) == wanted || !on;
}

int refrain_read_mouse(int *x, int *y) {
  MEVENT event;
  if (getmouse(&event) != OK) return 0;
  *x = event.x;
  *y = event.y;
  if (event.bstate & BUTTON4_PRESSED) return 1;
  if (event.bstate & BUTTON5_PRESSED) return 2;
  if (event.bstate & BUTTON1_PRESSED) return 3;
  return 0;
}

int refrain_key_code(const char *name) {
  if (!strcmp(name, "up")) return KEY_UP;
  if (!strcmp(name, "down")) return KEY_DOWN;
  if (!strcmp(name, "left")) return KEY_LEFT;
  if (!strcmp(name, "right")) return KEY_RIGHT;
  if (!strcmp(name, "pageup")) return KEY_PPAGE;
  if (!strcmp(name, "pagedown")) return KEY_NPAGE;
  if (!strcmp(name, "home")) return KEY_HOME;
  if (!strcmp(name, "end")) return KEY_END;
  if (!strcmp(name, "backspace")) return KEY_BACKSPACE;
  if (!strcmp(name, "enter")) return KEY_ENTER;
  if (!strcmp(name, "delete")) return KEY_DC;
  if (!strcmp(name, "btab")) return KEY_BTAB;
  if (!strcmp(name, "resize")) return KEY_RESIZE;
  if (!strcmp(name, "f1")) return KEY_F(1);
  if (!strcmp(name, "mouse")) return KEY_MOUSE;
  return -1;
}

#include <ncursesw/term.h>

int refrain_colors(void) {
  int count = tigetnum("colors");
  return count < 0 ? 0 : count;
}

int refrain_redraw_lines(int y, int count) { return wredrawln(stdscr, y, count); }
