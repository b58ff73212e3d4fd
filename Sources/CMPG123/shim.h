#ifndef REFRAIN_CMPG123_SHIM_H
#define REFRAIN_CMPG123_SHIM_H
#include <mpg123.h>
#endif
