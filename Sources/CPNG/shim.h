#ifndef REFRAIN_CPNG_SHIM_H
#define REFRAIN_CPNG_SHIM_H
#include <png.h>
#endif
