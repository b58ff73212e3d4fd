// What the parts of the MPRIS plugin share: the server's state and the calls between them.
// snapshot.c holds the property snapshot, the request queue and the signals; object.c the
// exported object (introspection, Get, Set, method calls); thread.c the D-Bus thread;
// notify.c track notifications; plugin.c the table the loader calls through. Everything
// here stays inside the plugin: its one exported symbol is refrain_mpris_plugin_api.
#ifndef REFRAIN_MPRIS_SERVER_H
#define REFRAIN_MPRIS_SERVER_H
#include <gio/gio.h>

#include "refrain_mpris.h"

#pragma GCC visibility push(hidden)

#define OBJECT_PATH "/org/mpris/MediaPlayer2"
#define ROOT_INTERFACE "org.mpris.MediaPlayer2"
#define PLAYER_INTERFACE "org.mpris.MediaPlayer2.Player"

struct refrain_mpris {
  gint refs;  // the player's handle, the D-Bus thread, and each signal on its way
  GMainContext *context;
  GMainLoop *loop;
  int wake_read;
  int wake_write;
  char *name;
  char *fallback_name;

  GMutex lock;  // guards what follows, up to the D-Bus thread's own fields
  gboolean alive;  // whether the D-Bus thread still dispatches signals
  GQueue requests;
  refrain_mpris_player player;
  GVariant *metadata;
  int64_t position_us;
  int64_t anchor_us;
  int32_t advancing;
  int64_t limit_us;

  // The D-Bus thread's own.
  GDBusConnection *connection;
  guint registrations[2];
  guint32 notification_id;  // the last track notification's, which the next replaces

  // The player's thread's own.
  GVariantBuilder builder;
  gboolean building;
};

/// LoopStatus's names, indexed by refrain_mpris_loop.
extern const char *const mpris_loop_names[3];
/// The introspection data of /org/mpris/MediaPlayer2: both interfaces.
extern const char mpris_introspection_xml[];
/// Get, Set and method calls of both interfaces (the D-Bus thread).
extern const GDBusInterfaceVTable mpris_vtable;

/// Drops a reference; the last one frees the server.
void mpris_server_unref(refrain_mpris *server);
/// Queues a request for the player's thread and wakes it.
void mpris_post(refrain_mpris *server, refrain_mpris_request_kind kind, int64_t integer,
                double number, const char *text);
/// PlaybackStatus's name for a refrain_mpris_status value.
const char *mpris_status_name(int32_t status);
/// LoopStatus's name for a refrain_mpris_loop value.
const char *mpris_loop_name(int32_t loop);

// The calls of refrain_mpris_api, as refrain_mpris.h describes them.
refrain_mpris *mpris_start(const char *name, const char *fallback_name);
void mpris_stop(refrain_mpris *server);
int mpris_wake_fd(const refrain_mpris *server);
void mpris_drain_wake(refrain_mpris *server);
int mpris_take(refrain_mpris *server, refrain_mpris_request *request);
void mpris_request_clear(refrain_mpris_request *request);
void mpris_set_player(refrain_mpris *server, refrain_mpris_player player);
void mpris_set_position(refrain_mpris *server, int64_t position_us, int32_t advancing,
                        int64_t limit_us);
void mpris_emit_seeked(refrain_mpris *server, int64_t position_us);
void mpris_notify(refrain_mpris *server, const char *summary, const char *body, const char *icon);
void mpris_metadata_begin(refrain_mpris *server);
void mpris_metadata_add_path(refrain_mpris *server, const char *key, const char *path);
void mpris_metadata_add_string(refrain_mpris *server, const char *key, const char *value);
void mpris_metadata_add_strings(refrain_mpris *server, const char *key, const char *joined);
void mpris_metadata_add_int64(refrain_mpris *server, const char *key, int64_t value);
void mpris_metadata_commit(refrain_mpris *server);

#pragma GCC visibility pop

#endif
