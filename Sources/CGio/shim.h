#ifndef REFRAIN_CGIO_SHIM_H
#define REFRAIN_CGIO_SHIM_H
// GIO's D-Bus (GDBus), for MPRIS. Only CMPRIS includes it: Swift sees CMPRIS's own header.
#include <gio/gio.h>
#endif
