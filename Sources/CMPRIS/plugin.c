// The plugin's one exported symbol: the table CMPRISLoader forwards each call through.
#include "refrain_mpris_plugin.h"
#include "server.h"

static const refrain_mpris_api api = {
    .version = REFRAIN_MPRIS_API_VERSION,
    .start = mpris_start,
    .stop = mpris_stop,
    .wake_fd = mpris_wake_fd,
    .drain_wake = mpris_drain_wake,
    .take = mpris_take,
    .request_clear = mpris_request_clear,
    .set_player = mpris_set_player,
    .set_position = mpris_set_position,
    .emit_seeked = mpris_emit_seeked,
    .notify = mpris_notify,
    .metadata_begin = mpris_metadata_begin,
    .metadata_add_path = mpris_metadata_add_path,
    .metadata_add_string = mpris_metadata_add_string,
    .metadata_add_strings = mpris_metadata_add_strings,
    .metadata_add_int64 = mpris_metadata_add_int64,
    .metadata_commit = mpris_metadata_commit,
};

/// The table of the plugin's calls (REFRAIN_MPRIS_API_VERSION).
__attribute__((visibility("default"))) const refrain_mpris_api *refrain_mpris_plugin_api(void) {
  return &api;
}
