#ifndef REFRAIN_CGLIB_SHIM_H
#define REFRAIN_CGLIB_SHIM_H
// GLib, for its checksums (MD5 for Last.fm's request signatures): Foundation on Linux has
// no MD5, and GLib is already installed with libpulse.
#include <glib.h>
#endif
