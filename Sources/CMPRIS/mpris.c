// MPRIS 2 over GDBus: the D-Bus thread, the property snapshot and the request queue.
// See include/refrain_mpris.h for the contract.
#include "refrain_mpris.h"

#include <fcntl.h>
#include <gio/gio.h>
#include <string.h>
#include <unistd.h>

#define OBJECT_PATH "/org/mpris/MediaPlayer2"
#define ROOT_INTERFACE "org.mpris.MediaPlayer2"
#define PLAYER_INTERFACE "org.mpris.MediaPlayer2.Player"

static const char introspection_xml[] =
    "<node>"
    " <interface name='org.mpris.MediaPlayer2'>"
    "  <method name='Raise'/>"
    "  <method name='Quit'/>"
    "  <property name='CanQuit' type='b' access='read'/>"
    "  <property name='CanRaise' type='b' access='read'/>"
    "  <property name='HasTrackList' type='b' access='read'/>"
    "  <property name='Identity' type='s' access='read'/>"
    "  <property name='DesktopEntry' type='s' access='read'/>"
    "  <property name='SupportedUriSchemes' type='as' access='read'/>"
    "  <property name='SupportedMimeTypes' type='as' access='read'/>"
    " </interface>"
    " <interface name='org.mpris.MediaPlayer2.Player'>"
    "  <method name='Next'/>"
    "  <method name='Previous'/>"
    "  <method name='Pause'/>"
    "  <method name='PlayPause'/>"
    "  <method name='Stop'/>"
    "  <method name='Play'/>"
    "  <method name='Seek'><arg direction='in' name='Offset' type='x'/></method>"
    "  <method name='SetPosition'>"
    "   <arg direction='in' name='TrackId' type='o'/>"
    "   <arg direction='in' name='Position' type='x'/>"
    "  </method>"
    "  <method name='OpenUri'><arg direction='in' name='Uri' type='s'/></method>"
    "  <signal name='Seeked'><arg name='Position' type='x'/></signal>"
    "  <property name='PlaybackStatus' type='s' access='read'/>"
    "  <property name='LoopStatus' type='s' access='readwrite'/>"
    "  <property name='Rate' type='d' access='readwrite'/>"
    "  <property name='Shuffle' type='b' access='readwrite'/>"
    "  <property name='Metadata' type='a{sv}' access='read'/>"
    "  <property name='Volume' type='d' access='readwrite'/>"
    "  <property name='Position' type='x' access='read'>"
    "   <annotation name='org.freedesktop.DBus.Property.EmitsChangedSignal' value='false'/>"
    "  </property>"
    "  <property name='MinimumRate' type='d' access='read'/>"
    "  <property name='MaximumRate' type='d' access='read'/>"
    "  <property name='CanGoNext' type='b' access='read'/>"
    "  <property name='CanGoPrevious' type='b' access='read'/>"
    "  <property name='CanPlay' type='b' access='read'/>"
    "  <property name='CanPause' type='b' access='read'/>"
    "  <property name='CanSeek' type='b' access='read'/>"
    "  <property name='CanControl' type='b' access='read'>"
    "   <annotation name='org.freedesktop.DBus.Property.EmitsChangedSignal' value='false'/>"
    "  </property>"
    " </interface>"
    "</node>";

static const char *const status_names[] = {"Stopped", "Playing", "Paused"};
static const char *const loop_names[] = {"None", "Track", "Playlist"};

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

  // The player's thread's own.
  GVariantBuilder builder;
  gboolean building;
};

static void server_unref(refrain_mpris *server) {
  if (!g_atomic_int_dec_and_test(&server->refs)) return;
  if (server->building) g_variant_builder_clear(&server->builder);
  refrain_mpris_request *request;
  while ((request = g_queue_pop_head(&server->requests)) != NULL) {
    refrain_mpris_request_clear(request);
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

static void post(refrain_mpris *server, refrain_mpris_request_kind kind, int64_t integer,
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

int refrain_mpris_wake_fd(const refrain_mpris *server) { return server->wake_read; }

void refrain_mpris_drain_wake(refrain_mpris *server) {
  char scratch[64];
  while (read(server->wake_read, scratch, sizeof scratch) > 0) {
  }
}

int refrain_mpris_take(refrain_mpris *server, refrain_mpris_request *request) {
  g_mutex_lock(&server->lock);
  refrain_mpris_request *head = g_queue_pop_head(&server->requests);
  g_mutex_unlock(&server->lock);
  if (head == NULL) return 0;
  *request = *head;
  g_free(head);
  return 1;
}

void refrain_mpris_request_clear(refrain_mpris_request *request) {
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
  server_unref(pending->server);
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

static const char *status_name(int32_t status) {
  return status >= 0 && status < 3 ? status_names[status] : status_names[0];
}

static const char *loop_name(int32_t loop) {
  return loop >= 0 && loop < 3 ? loop_names[loop] : loop_names[0];
}

void refrain_mpris_set_player(refrain_mpris *server, refrain_mpris_player player) {
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
                          g_variant_new_string(status_name(player.playback_status)));
    any = TRUE;
  }
  if (old.loop_status != player.loop_status) {
    g_variant_builder_add(&changed, "{sv}", "LoopStatus",
                          g_variant_new_string(loop_name(player.loop_status)));
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

void refrain_mpris_set_position(refrain_mpris *server, int64_t position_us, int32_t advancing,
                                int64_t limit_us) {
  int64_t now = g_get_monotonic_time();
  g_mutex_lock(&server->lock);
  server->position_us = position_us;
  server->anchor_us = now;
  server->advancing = advancing;
  server->limit_us = limit_us;
  g_mutex_unlock(&server->lock);
}

void refrain_mpris_emit_seeked(refrain_mpris *server, int64_t position_us) {
  send_signal(server, NULL, position_us);
}

// MARK: - Metadata

void refrain_mpris_metadata_begin(refrain_mpris *server) {
  if (server->building) g_variant_builder_clear(&server->builder);
  g_variant_builder_init(&server->builder, G_VARIANT_TYPE("a{sv}"));
  server->building = TRUE;
}

static gboolean usable(refrain_mpris *server, const char *key, const char *value) {
  return server->building && key != NULL && value != NULL && g_utf8_validate(key, -1, NULL) &&
         g_utf8_validate(value, -1, NULL);
}

void refrain_mpris_metadata_add_path(refrain_mpris *server, const char *key, const char *path) {
  if (!usable(server, key, path) || !g_variant_is_object_path(path)) return;
  g_variant_builder_add(&server->builder, "{sv}", key, g_variant_new_object_path(path));
}

void refrain_mpris_metadata_add_string(refrain_mpris *server, const char *key,
                                       const char *value) {
  if (!usable(server, key, value)) return;
  g_variant_builder_add(&server->builder, "{sv}", key, g_variant_new_string(value));
}

void refrain_mpris_metadata_add_strings(refrain_mpris *server, const char *key,
                                        const char *joined) {
  if (!usable(server, key, joined)) return;
  char **items = g_strsplit(joined, "\x1f", -1);
  g_variant_builder_add(&server->builder, "{sv}", key,
                        g_variant_new_strv((const gchar *const *)items, -1));
  g_strfreev(items);
}

void refrain_mpris_metadata_add_int64(refrain_mpris *server, const char *key, int64_t value) {
  if (!server->building || key == NULL || !g_utf8_validate(key, -1, NULL)) return;
  g_variant_builder_add(&server->builder, "{sv}", key, g_variant_new_int64(value));
}

void refrain_mpris_metadata_commit(refrain_mpris *server) {
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

// MARK: - The exported object (D-Bus thread)

static GVariant *string_list(const char *const *items) {
  return g_variant_new_strv(items, -1);
}

static GVariant *get_property(GDBusConnection *connection, const gchar *sender,
                              const gchar *path, const gchar *interface, const gchar *property,
                              GError **error, gpointer data) {
  (void)connection, (void)sender, (void)path, (void)error;
  refrain_mpris *server = data;
  if (strcmp(interface, ROOT_INTERFACE) == 0) {
    static const char *const schemes[] = {"file", "http", "https", NULL};
    static const char *const mime_types[] = {"audio/mpeg", NULL};
    if (strcmp(property, "CanQuit") == 0) return g_variant_new_boolean(TRUE);
    if (strcmp(property, "CanRaise") == 0) return g_variant_new_boolean(FALSE);
    if (strcmp(property, "HasTrackList") == 0) return g_variant_new_boolean(FALSE);
    if (strcmp(property, "Identity") == 0) return g_variant_new_string("Refrain");
    if (strcmp(property, "DesktopEntry") == 0) return g_variant_new_string("refrain");
    if (strcmp(property, "SupportedUriSchemes") == 0) return string_list(schemes);
    if (strcmp(property, "SupportedMimeTypes") == 0) return string_list(mime_types);
    return NULL;
  }
  if (strcmp(property, "Rate") == 0 || strcmp(property, "MinimumRate") == 0 ||
      strcmp(property, "MaximumRate") == 0)
    return g_variant_new_double(1.0);
  if (strcmp(property, "CanControl") == 0) return g_variant_new_boolean(TRUE);
  GVariant *value = NULL;
  g_mutex_lock(&server->lock);
  refrain_mpris_player player = server->player;
  if (strcmp(property, "Position") == 0) {
    int64_t position = server->position_us;
    if (server->advancing) position += g_get_monotonic_time() - server->anchor_us;
    if (server->limit_us >= 0 && position > server->limit_us) position = server->limit_us;
    value = g_variant_new_int64(position < 0 ? 0 : position);
  } else if (strcmp(property, "Metadata") == 0) {
    value = server->metadata ? g_variant_ref(server->metadata)
                             : g_variant_new_array(G_VARIANT_TYPE("{sv}"), NULL, 0);
  }
  g_mutex_unlock(&server->lock);
  if (value != NULL) return value;
  if (strcmp(property, "PlaybackStatus") == 0)
    return g_variant_new_string(status_name(player.playback_status));
  if (strcmp(property, "LoopStatus") == 0)
    return g_variant_new_string(loop_name(player.loop_status));
  if (strcmp(property, "Shuffle") == 0) return g_variant_new_boolean(player.shuffle);
  if (strcmp(property, "Volume") == 0) return g_variant_new_double(player.volume);
  if (strcmp(property, "CanGoNext") == 0) return g_variant_new_boolean(player.can_go_next);
  if (strcmp(property, "CanGoPrevious") == 0)
    return g_variant_new_boolean(player.can_go_previous);
  if (strcmp(property, "CanPlay") == 0) return g_variant_new_boolean(player.can_play);
  if (strcmp(property, "CanPause") == 0) return g_variant_new_boolean(player.can_pause);
  if (strcmp(property, "CanSeek") == 0) return g_variant_new_boolean(player.can_seek);
  return NULL;
}

static gboolean set_property(GDBusConnection *connection, const gchar *sender,
                             const gchar *path, const gchar *interface, const gchar *property,
                             GVariant *value, GError **error, gpointer data) {
  (void)connection, (void)sender, (void)path, (void)interface;
  refrain_mpris *server = data;
  if (strcmp(property, "Volume") == 0) {
    post(server, REFRAIN_MPRIS_SET_VOLUME, 0, g_variant_get_double(value), NULL);
  } else if (strcmp(property, "Shuffle") == 0) {
    post(server, REFRAIN_MPRIS_SET_SHUFFLE, g_variant_get_boolean(value) ? 1 : 0, 0, NULL);
  } else if (strcmp(property, "LoopStatus") == 0) {
    const char *loop = g_variant_get_string(value, NULL);
    int64_t mode = -1;
    for (int index = 0; index < 3; index++) {
      if (strcmp(loop, loop_names[index]) == 0) mode = index;
    }
    if (mode < 0) {
      g_set_error(error, G_DBUS_ERROR, G_DBUS_ERROR_INVALID_ARGS,
                  "LoopStatus is None, Track or Playlist, not %s", loop);
      return FALSE;
    }
    post(server, REFRAIN_MPRIS_SET_LOOP, mode, 0, NULL);
  }
  // Rate: only 1 is offered (MinimumRate = MaximumRate = 1), so a write changes nothing.
  return TRUE;
}

static gboolean is_supported_uri(const char *uri) {
  char *scheme = g_uri_parse_scheme(uri);
  gboolean supported = scheme != NULL && (g_ascii_strcasecmp(scheme, "file") == 0 ||
                                          g_ascii_strcasecmp(scheme, "http") == 0 ||
                                          g_ascii_strcasecmp(scheme, "https") == 0);
  g_free(scheme);
  return supported;
}

static void method_call(GDBusConnection *connection, const gchar *sender, const gchar *path,
                        const gchar *interface, const gchar *method, GVariant *parameters,
                        GDBusMethodInvocation *invocation, gpointer data) {
  (void)connection, (void)sender, (void)path;
  refrain_mpris *server = data;
  static const struct {
    const char *method;
    refrain_mpris_request_kind kind;
  } plain[] = {
      {"Next", REFRAIN_MPRIS_NEXT},   {"Previous", REFRAIN_MPRIS_PREVIOUS},
      {"Pause", REFRAIN_MPRIS_PAUSE}, {"PlayPause", REFRAIN_MPRIS_PLAY_PAUSE},
      {"Stop", REFRAIN_MPRIS_STOP},   {"Play", REFRAIN_MPRIS_PLAY},
  };
  if (strcmp(interface, ROOT_INTERFACE) == 0) {
    if (strcmp(method, "Quit") == 0) post(server, REFRAIN_MPRIS_QUIT, 0, 0, NULL);
    // Raise: CanRaise is false, so there is nothing to do.
    g_dbus_method_invocation_return_value(invocation, NULL);
    return;
  }
  for (size_t index = 0; index < G_N_ELEMENTS(plain); index++) {
    if (strcmp(method, plain[index].method) == 0) {
      post(server, plain[index].kind, 0, 0, NULL);
      g_dbus_method_invocation_return_value(invocation, NULL);
      return;
    }
  }
  if (strcmp(method, "Seek") == 0) {
    gint64 offset = 0;
    g_variant_get(parameters, "(x)", &offset);
    post(server, REFRAIN_MPRIS_SEEK, offset, 0, NULL);
  } else if (strcmp(method, "SetPosition") == 0) {
    const char *track = NULL;
    gint64 position = 0;
    g_variant_get(parameters, "(&ox)", &track, &position);
    post(server, REFRAIN_MPRIS_SET_POSITION, position, 0, track);
  } else if (strcmp(method, "OpenUri") == 0) {
    const char *uri = NULL;
    g_variant_get(parameters, "(&s)", &uri);
    if (!is_supported_uri(uri)) {
      g_dbus_method_invocation_return_error(invocation, G_DBUS_ERROR, G_DBUS_ERROR_NOT_SUPPORTED,
                                            "Refrain opens file, http and https URIs");
      return;
    }
    post(server, REFRAIN_MPRIS_OPEN_URI, 0, 0, uri);
  }
  g_dbus_method_invocation_return_value(invocation, NULL);
}

static const GDBusInterfaceVTable vtable = {method_call, get_property, set_property, {0}};

// MARK: - The D-Bus thread

/// Asks the bus for `name` without queueing: TRUE when Refrain owns it now.
static gboolean request_name(GDBusConnection *connection, const char *name, GError **error) {
  GVariant *reply = g_dbus_connection_call_sync(
      connection, "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus",
      "RequestName", g_variant_new("(su)", name, 4u /* DBUS_NAME_FLAG_DO_NOT_QUEUE */),
      G_VARIANT_TYPE("(u)"), G_DBUS_CALL_FLAGS_NONE, 5000, NULL, error);
  if (reply == NULL) return FALSE;
  guint32 answer = 0;
  g_variant_get(reply, "(u)", &answer);
  g_variant_unref(reply);
  return answer == 1 /* primary owner */ || answer == 4 /* already the owner */;
}

static void on_closed(GDBusConnection *connection, gboolean remote_peer_vanished, GError *error,
                      gpointer data) {
  (void)connection, (void)remote_peer_vanished;
  refrain_mpris *server = data;
  post(server, REFRAIN_MPRIS_DISCONNECTED, 0, 0,
       error ? error->message : "the session bus closed the connection");
  g_main_loop_quit(server->loop);
}

/// Whether a session bus may be there: its address is set, or the usual socket exists. GIO
/// would otherwise try to autolaunch one (with X11), which a player must not do.
static gboolean has_session_bus(void) {
  const char *address = g_getenv("DBUS_SESSION_BUS_ADDRESS");
  if (address != NULL && *address != 0) return TRUE;
  char *socket = g_build_filename(g_get_user_runtime_dir(), "bus", NULL);
  gboolean exists = g_file_test(socket, G_FILE_TEST_EXISTS);
  g_free(socket);
  return exists;
}

static gboolean connect_and_export(refrain_mpris *server, char **problem) {
  if (!has_session_bus()) {
    *problem = g_strdup("DBUS_SESSION_BUS_ADDRESS is not set and $XDG_RUNTIME_DIR/bus is absent");
    return FALSE;
  }
  GError *error = NULL;
  char *address = g_dbus_address_get_for_bus_sync(G_BUS_TYPE_SESSION, NULL, &error);
  if (address != NULL) {
    // A connection of Refrain's own: the shared one would exit the process when the bus goes.
    server->connection = g_dbus_connection_new_for_address_sync(
        address,
        G_DBUS_CONNECTION_FLAGS_AUTHENTICATION_CLIENT |
            G_DBUS_CONNECTION_FLAGS_MESSAGE_BUS_CONNECTION,
        NULL, NULL, &error);
    g_free(address);
  }
  if (server->connection == NULL) goto failed;
  g_dbus_connection_set_exit_on_close(server->connection, FALSE);
  GDBusNodeInfo *node = g_dbus_node_info_new_for_xml(introspection_xml, &error);
  if (node == NULL) goto failed;
  for (int index = 0; index < 2; index++) {
    server->registrations[index] = g_dbus_connection_register_object(
        server->connection, OBJECT_PATH, node->interfaces[index], &vtable, server, NULL, &error);
    if (server->registrations[index] == 0) break;
  }
  g_dbus_node_info_unref(node);
  if (error != NULL) goto failed;
  const char *owned = server->name;
  if (!request_name(server->connection, owned, &error)) {
    if (error != NULL) goto failed;
    owned = server->fallback_name;
    if (!request_name(server->connection, owned, &error)) {
      if (error == NULL) {
        *problem = g_strdup_printf("the bus names %s and %s are taken", server->name, owned);
        return FALSE;
      }
      goto failed;
    }
  }
  g_signal_connect(server->connection, "closed", G_CALLBACK(on_closed), server);
  post(server, REFRAIN_MPRIS_CONNECTED, 0, 0, owned);
  return TRUE;
failed:
  *problem = g_strdup(error ? error->message : "no session bus");
  g_clear_error(&error);
  return FALSE;
}

static gpointer run(gpointer data) {
  refrain_mpris *server = data;
  g_main_context_push_thread_default(server->context);
  char *problem = NULL;
  if (connect_and_export(server, &problem)) {
    g_main_loop_run(server->loop);  // until refrain_mpris_stop or the bus closes
  } else {
    post(server, REFRAIN_MPRIS_UNAVAILABLE, 0, 0, problem);
    g_free(problem);
  }
  if (server->connection != NULL) {
    g_signal_handlers_disconnect_by_data(server->connection, server);
    for (int index = 0; index < 2; index++) {
      if (server->registrations[index] != 0)
        g_dbus_connection_unregister_object(server->connection, server->registrations[index]);
    }
    g_dbus_connection_close_sync(server->connection, NULL, NULL);
    GDBusConnection *connection = server->connection;
    server->connection = NULL;
    g_object_unref(connection);
  }
  // No signal is queued any more; those queued already are dropped with their references.
  g_mutex_lock(&server->lock);
  server->alive = FALSE;
  g_mutex_unlock(&server->lock);
  while (g_main_context_iteration(server->context, FALSE)) {
  }
  g_main_context_pop_thread_default(server->context);
  server_unref(server);
  return NULL;
}

refrain_mpris *refrain_mpris_start(const char *name, const char *fallback_name) {
  int fds[2];
  if (pipe(fds) != 0) return NULL;
  for (int index = 0; index < 2; index++) {
    fcntl(fds[index], F_SETFL, fcntl(fds[index], F_GETFL) | O_NONBLOCK);
    fcntl(fds[index], F_SETFD, FD_CLOEXEC);
  }
  refrain_mpris *server = g_new0(refrain_mpris, 1);
  server->refs = 2;  // the caller's and the thread's
  server->context = g_main_context_new();
  server->loop = g_main_loop_new(server->context, FALSE);
  server->wake_read = fds[0];
  server->wake_write = fds[1];
  server->name = g_strdup(name);
  server->fallback_name = g_strdup(fallback_name);
  g_mutex_init(&server->lock);
  g_queue_init(&server->requests);
  server->limit_us = -1;
  server->alive = TRUE;
  GError *error = NULL;
  GThread *thread = g_thread_try_new("refrain-mpris", run, server, &error);
  if (thread == NULL) {
    g_clear_error(&error);
    server->refs = 1;
    server_unref(server);
    return NULL;
  }
  g_thread_unref(thread);  // detached: nothing ever waits for it
  return server;
}

static gboolean quit_loop(gpointer data) {
  refrain_mpris *server = data;
  g_main_loop_quit(server->loop);
  return G_SOURCE_REMOVE;
}

static void release(gpointer data) { server_unref(data); }

void refrain_mpris_stop(refrain_mpris *server) {
  g_mutex_lock(&server->lock);
  if (server->alive) {
    g_atomic_int_inc(&server->refs);
    g_main_context_invoke_full(server->context, G_PRIORITY_HIGH, quit_loop, server, release);
  }
  g_mutex_unlock(&server->lock);
  server_unref(server);
}
