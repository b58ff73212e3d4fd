#ifndef REFRAIN_CNCURSESW_SHIM_H
#define REFRAIN_CNCURSESW_SHIM_H
#define NCURSES_WIDECHAR 1
#include <ncursesw/curses.h>
#endif
