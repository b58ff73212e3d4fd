#ifndef REFRAIN_CFAAD_SHIM_H
#define REFRAIN_CFAAD_SHIM_H
// faad2's decoder API (Debian's libfaad-dev ships no pkg-config file, so the module map
// names the library itself).
#include <neaacdec.h>
#endif
