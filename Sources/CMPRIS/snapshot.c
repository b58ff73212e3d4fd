// The property snapshot, the request queue and the signals: the half of CMPRIS the player's
// thread calls. See include/refrain_mpris.h for the contract.
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "server.h"

static const char *const status_names[] = {"Stopped", "Playing", "Paused"};
const char *const mpris_loop_names[3] = {"None", "Track", "Playlist"};

void mpris_server_unref(refrain_mpris *server) {
  if (!g_atomic_int_dec_and_test(&server->refs)) return;
  if (server->building) g_variant_builder_clear(&server->builder);
  refrain_mpris_request *request;
  while ((request = g_queue_pop_head(&server->requests)) != NULL) {
    mpris_request_clear(request);
    g_free(request);
  }
  if (server->metadata) g_variant_unref(server->metadata);
  g_main_loop_unref(server->loop);
  g_main_context_unref(server->context);
  close(server->wake_read);
  close(server->wake_write);
  g_free(server->name);
  g_free(server->fallback_name);
  g_mutex_clear(&server->lock);
  g_free(server);
}

// MARK: - Requests (D-Bus thread → player's thread)

void mpris_post(refrain_mpris *server, refrain_mpris_request_kind kind, int64_t integer,
                 double number, const char *text) {
  refrain_mpris_request *request = g_new0(refrain_mpris_request, 1);
  request->kind = kind;
  request->integer = integer;
  request->number = number;
  request->text = g_strdup(text);
  g_mutex_lock(&server->lock);
  g_queue_push_tail(&server->requests, request);
  g_mutex_unlock(&server->lock);
  char byte = 1;
  ssize_t written = write(server->wake_write, &byte, 1);
  (void)written;  // a full pipe already wakes the reader
}

int mpris_wake_fd(const refrain_mpris *server) { return server->wake_read; }

void mpris_drain_wake(refrain_mpris *server) {
  char scratch[64];
  while (read(server->wake_read, scratch, sizeof scratch) > 0) {
  }
}

int mpris_take(refrain_mpris *server, refrain_mpris_request *request) {
  g_mutex_lock(&server->lock);
  refrain_mpris_request *head = g_queue_pop_head(&server->requests);
  g_mutex_unlock(&server->lock);
  if (head == NULL) return 0;
  *request = *head;
  g_free(head);
  return 1;
}

void mpris_request_clear(refrain_mpris_request *request) {
  g_free(request->text);
  request->text = NULL;
}

// MARK: - Signals (player's thread → D-Bus thread)

typedef struct pending_signal {
  refrain_mpris *server;
  GVariant *changed;  // a{sv} for PropertiesChanged, or NULL for Seeked
  int64_t position_us;
} pending_signal;

static gboolean emit_pending(gpointer data) {
  pending_signal *pending = data;
  GDBusConnection *connection = pending->server->connection;
  if (connection == NULL) return G_SOURCE_REMOVE;  // not on the bus (yet): Get tells all
  if (pending->changed != NULL) {
    g_dbus_connection_emit_signal(
        connection, NULL, OBJECT_PATH, "org.freedesktop.DBus.Properties", "PropertiesChanged",
        g_variant_new("(s@a{sv}@as)", PLAYER_INTERFACE, pending->changed,
                      g_variant_new_strv(NULL, 0)),
        NULL);
  } else {
    g_dbus_connection_emit_signal(connection, NULL, OBJECT_PATH, PLAYER_INTERFACE, "Seeked",
                                  g_variant_new("(x)", (gint64)pending->position_us), NULL);
  }
  return G_SOURCE_REMOVE;
}

static void free_pending(gpointer data) {
  pending_signal *pending = data;
  if (pending->changed) g_variant_unref(pending->changed);
  mpris_server_unref(pending->server);
  g_free(pending);
}

static void send_signal(refrain_mpris *server, GVariant *changed, int64_t position_us) {
  if (changed) g_variant_ref_sink(changed);
  g_mutex_lock(&server->lock);
  if (server->alive) {
    pending_signal *pending = g_new0(pending_signal, 1);
    g_atomic_int_inc(&server->refs);
    pending->server = server;
    pending->changed = changed ? g_variant_ref(changed) : NULL;
    pending->position_us = position_us;
    // Never runs here: the context is the D-Bus thread's, not this thread's default.
    g_main_context_invoke_full(server->context, G_PRIORITY_DEFAULT, emit_pending, pending,
                               free_pending);
  }
  g_mutex_unlock(&server->lock);
  if (changed) g_variant_unref(changed);
}

const char *mpris_status_name(int32_t status) {
  return status >= 0 && status < 3 ? status_names[status] : status_names[0];
}

const char *mpris_loop_name(int32_t loop) {
  return loop >= 0 && loop < 3 ? mpris_loop_names[loop] : mpris_loop_names[0];
}

void mpris_set_player(refrain_mpris *server, refrain_mpris_player player) {
  GVariantBuilder changed;
  g_variant_builder_init(&changed, G_VARIANT_TYPE("a{sv}"));
  gboolean any = FALSE;
  g_mutex_lock(&server->lock);
  refrain_mpris_player old = server->player;
  server->player = player;
  g_mutex_unlock(&server->lock);
#define CHANGED_BOOLEAN(field, property)                                                 \
  if (old.field != player.field) {                                                       \
    g_variant_builder_add(&changed, "{sv}", property, g_variant_new_boolean(player.field)); \
    any = TRUE;                                                                          \
  }
  if (old.playback_status != player.playback_status) {
    g_variant_builder_add(&changed, "{sv}", "PlaybackStatus",
                          g_variant_new_string(mpris_status_name(player.playback_status)));
    any = TRUE;
  }
  if (old.loop_status != player.loop_status) {
    g_variant_builder_add(&changed, "{sv}", "LoopStatus",
                          g_variant_new_string(mpris_loop_name(player.loop_status)));
    any = TRUE;
  }
  if (old.volume != player.volume) {
    g_variant_builder_add(&changed, "{sv}", "Volume", g_variant_new_double(player.volume));
    any = TRUE;
  }
  CHANGED_BOOLEAN(shuffle, "Shuffle")
  CHANGED_BOOLEAN(can_go_next, "CanGoNext")
  CHANGED_BOOLEAN(can_go_previous, "CanGoPrevious")
  CHANGED_BOOLEAN(can_play, "CanPlay")
  CHANGED_BOOLEAN(can_pause, "CanPause")
  CHANGED_BOOLEAN(can_seek, "CanSeek")
#undef CHANGED_BOOLEAN
  GVariant *dictionary = g_variant_builder_end(&changed);
  if (any) {
    send_signal(server, dictionary, 0);
  } else {
    g_variant_unref(g_variant_ref_sink(dictionary));
  }
}

void mpris_set_position(refrain_mpris *server, int64_t position_us, int32_t advancing,
                                int64_t limit_us) {
  int64_t now = g_get_monotonic_time();
  g_mutex_lock(&server->lock);
  server->position_us = position_us;
  server->anchor_us = now;
  server->advancing = advancing;
  server->limit_us = limit_us;
  g_mutex_unlock(&server->lock);
}

void mpris_emit_seeked(refrain_mpris *server, int64_t position_us) {
  send_signal(server, NULL, position_us);
}

// MARK: - Metadata

void mpris_metadata_begin(refrain_mpris *server) {
  if (server->building) g_variant_builder_clear(&server->builder);
  g_variant_builder_init(&server->builder, G_VARIANT_TYPE("a{sv}"));
  server->building = TRUE;
}

static gboolean usable(refrain_mpris *server, const char *key, const char *value) {
  return server->building && key != NULL && value != NULL && g_utf8_validate(key, -1, NULL) &&
         g_utf8_validate(value, -1, NULL);
}

void mpris_metadata_add_path(refrain_mpris *server, const char *key, const char *path) {
  if (!usable(server, key, path) || !g_variant_is_object_path(path)) return;
  g_variant_builder_add(&server->builder, "{sv}", key, g_variant_new_object_path(path));
}

void mpris_metadata_add_string(refrain_mpris *server, const char *key,
                                       const char *value) {
  if (!usable(server, key, value)) return;
  g_variant_builder_add(&server->builder, "{sv}", key, g_variant_new_string(value));
}

void mpris_metadata_add_strings(refrain_mpris *server, const char *key,
                                        const char *joined) {
  if (!usable(server, key, joined)) return;
  char **items = g_strsplit(joined, "\x1f", -1);
  g_variant_builder_add(&server->builder, "{sv}", key,
                        g_variant_new_strv((const gchar *const *)items, -1));
  g_strfreev(items);
}

void mpris_metadata_add_int64(refrain_mpris *server, const char *key, int64_t value) {
  if (!server->building || key == NULL || !g_utf8_validate(key, -1, NULL)) return;
  g_variant_builder_add(&server->builder, "{sv}", key, g_variant_new_int64(value));
}

void mpris_metadata_commit(refrain_mpris *server) {
  if (!server->building) return;
  server->building = FALSE;
  GVariant *metadata = g_variant_ref_sink(g_variant_builder_end(&server->builder));
  g_mutex_lock(&server->lock);
  GVariant *old = server->metadata;
  server->metadata = g_variant_ref(metadata);
  g_mutex_unlock(&server->lock);
  if (old) g_variant_unref(old);
  GVariantBuilder changed;
  g_variant_builder_init(&changed, G_VARIANT_TYPE("a{sv}"));
  g_variant_builder_add(&changed, "{sv}", "Metadata", metadata);
  send_signal(server, g_variant_builder_end(&changed), 0);
  g_variant_unref(metadata);
}

