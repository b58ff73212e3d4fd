#ifndef REFRAIN_MPRIS_PLUGIN_H
#define REFRAIN_MPRIS_PLUGIN_H
// The one symbol librefrain-mpris.so exports; CMPRISLoader finds it with dlsym.
#include "refrain_mpris.h"

/// The table of the plugin's calls (REFRAIN_MPRIS_API_VERSION).
const refrain_mpris_api *refrain_mpris_plugin_api(void);

#endif
