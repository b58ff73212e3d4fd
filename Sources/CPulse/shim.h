#ifndef REFRAIN_CPULSE_SHIM_H
#define REFRAIN_CPULSE_SHIM_H
#include <pulse/simple.h>
#include <pulse/error.h>
#include <pulse/sample.h>
#endif
