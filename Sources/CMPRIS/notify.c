// Track notifications through org.freedesktop.Notifications, on the MPRIS connection's
// thread: each replaces the one before (the id the server gave back).
#include "server.h"

typedef struct {
  refrain_mpris *server;
  char *summary;
  char *body;
  char *icon;
} pending_note;

static void free_note(gpointer data) {
  pending_note *note = data;
  g_free(note->summary);
  g_free(note->body);
  g_free(note->icon);
  mpris_server_unref(note->server);
  g_free(note);
}

static void on_notified(GObject *source, GAsyncResult *result, gpointer data) {
  refrain_mpris *server = data;
  GVariant *reply = g_dbus_connection_call_finish(G_DBUS_CONNECTION(source), result, NULL);
  if (reply != NULL) {
    guint32 id = 0;
    g_variant_get(reply, "(u)", &id);
    server->notification_id = id;
    g_variant_unref(reply);
  }
  mpris_server_unref(server);
}

static gboolean send_note(gpointer data) {
  pending_note *note = data;
  refrain_mpris *server = note->server;
  if (server->connection == NULL) return G_SOURCE_REMOVE;
  GVariantBuilder actions;
  g_variant_builder_init(&actions, G_VARIANT_TYPE("as"));
  GVariantBuilder hints;
  g_variant_builder_init(&hints, G_VARIANT_TYPE("a{sv}"));
  g_variant_builder_add(&hints, "{sv}", "desktop-entry", g_variant_new_string("refrain"));
  if (note->icon[0] != '\0') {
    g_variant_builder_add(&hints, "{sv}", "image-path", g_variant_new_string(note->icon));
  }
  GVariant *parameters =
      g_variant_new("(susssasa{sv}i)", "Refrain", server->notification_id, note->icon,
                    note->summary, note->body, &actions, &hints, (gint32)-1);
  g_atomic_int_inc(&server->refs);
  g_dbus_connection_call(server->connection, "org.freedesktop.Notifications",
                         "/org/freedesktop/Notifications", "org.freedesktop.Notifications",
                         "Notify", parameters, G_VARIANT_TYPE("(u)"), G_DBUS_CALL_FLAGS_NONE,
                         2000, NULL, on_notified, server);
  return G_SOURCE_REMOVE;
}

static char *valid_copy(const char *text) {
  return text != NULL && g_utf8_validate(text, -1, NULL) ? g_strdup(text) : g_strdup("");
}

void mpris_notify(refrain_mpris *server, const char *summary, const char *body,
                          const char *icon) {
  g_mutex_lock(&server->lock);
  if (server->alive) {
    pending_note *note = g_new0(pending_note, 1);
    g_atomic_int_inc(&server->refs);
    note->server = server;
    note->summary = valid_copy(summary);
    note->body = valid_copy(body);
    note->icon = valid_copy(icon);
    g_main_context_invoke_full(server->context, G_PRIORITY_DEFAULT, send_note, note, free_note);
  }
  g_mutex_unlock(&server->lock);
}
