// The exported object /org/mpris/MediaPlayer2: Get answered from the snapshot, Set and
// method calls queued for the player's thread. Runs on the D-Bus thread.
#include <string.h>

#include "server.h"

const char mpris_introspection_xml[] =
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
    static const char *const mime_types[] = {"audio/mpeg", "audio/flac", "audio/ogg",
                                             "audio/opus", "audio/mp4",  "audio/wav", NULL};
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
    return g_variant_new_string(mpris_status_name(player.playback_status));
  if (strcmp(property, "LoopStatus") == 0)
    return g_variant_new_string(mpris_loop_name(player.loop_status));
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
    mpris_post(server, REFRAIN_MPRIS_SET_VOLUME, 0, g_variant_get_double(value), NULL);
  } else if (strcmp(property, "Shuffle") == 0) {
    mpris_post(server, REFRAIN_MPRIS_SET_SHUFFLE, g_variant_get_boolean(value) ? 1 : 0, 0,
               NULL);
  } else if (strcmp(property, "LoopStatus") == 0) {
    const char *loop = g_variant_get_string(value, NULL);
    int64_t mode = -1;
    for (int index = 0; index < 3; index++) {
      if (strcmp(loop, mpris_loop_names[index]) == 0) mode = index;
    }
    if (mode < 0) {
      g_set_error(error, G_DBUS_ERROR, G_DBUS_ERROR_INVALID_ARGS,
                  "LoopStatus is None, Track or Playlist, not %s", loop);
      return FALSE;
    }
    mpris_post(server, REFRAIN_MPRIS_SET_LOOP, mode, 0, NULL);
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
    if (strcmp(method, "Quit") == 0) mpris_post(server, REFRAIN_MPRIS_QUIT, 0, 0, NULL);
    // Raise: CanRaise is false, so there is nothing to do.
    g_dbus_method_invocation_return_value(invocation, NULL);
    return;
  }
  for (size_t index = 0; index < G_N_ELEMENTS(plain); index++) {
    if (strcmp(method, plain[index].method) == 0) {
      mpris_post(server, plain[index].kind, 0, 0, NULL);
      g_dbus_method_invocation_return_value(invocation, NULL);
      return;
    }
  }
  if (strcmp(method, "Seek") == 0) {
    gint64 offset = 0;
    g_variant_get(parameters, "(x)", &offset);
    mpris_post(server, REFRAIN_MPRIS_SEEK, offset, 0, NULL);
  } else if (strcmp(method, "SetPosition") == 0) {
    const char *track = NULL;
    gint64 position = 0;
    g_variant_get(parameters, "(&ox)", &track, &position);
    mpris_post(server, REFRAIN_MPRIS_SET_POSITION, position, 0, track);
  } else if (strcmp(method, "OpenUri") == 0) {
    const char *uri = NULL;
    g_variant_get(parameters, "(&s)", &uri);
    if (!is_supported_uri(uri)) {
      g_dbus_method_invocation_return_error(invocation, G_DBUS_ERROR, G_DBUS_ERROR_NOT_SUPPORTED,
                                            "Refrain opens file, http and https URIs");
      return;
    }
    mpris_post(server, REFRAIN_MPRIS_OPEN_URI, 0, 0, uri);
  }
  g_dbus_method_invocation_return_value(invocation, NULL);
}

const GDBusInterfaceVTable mpris_vtable = {method_call, get_property, set_property, {0}};
