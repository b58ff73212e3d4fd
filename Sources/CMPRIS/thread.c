// The D-Bus thread: its GMainContext, the connection, the bus name, start and stop.
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "server.h"

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
  mpris_post(server, REFRAIN_MPRIS_DISCONNECTED, 0, 0,
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
  GDBusNodeInfo *node = g_dbus_node_info_new_for_xml(mpris_introspection_xml, &error);
  if (node == NULL) goto failed;
  for (int index = 0; index < 2; index++) {
    server->registrations[index] = g_dbus_connection_register_object(
        server->connection, OBJECT_PATH, node->interfaces[index], &mpris_vtable, server, NULL,
        &error);
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
  mpris_post(server, REFRAIN_MPRIS_CONNECTED, 0, 0, owned);
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
    mpris_post(server, REFRAIN_MPRIS_UNAVAILABLE, 0, 0, problem);
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
  mpris_server_unref(server);
  return NULL;
}

refrain_mpris *mpris_start(const char *name, const char *fallback_name) {
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
    mpris_server_unref(server);
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

static void release(gpointer data) { mpris_server_unref(data); }

void mpris_stop(refrain_mpris *server) {
  g_mutex_lock(&server->lock);
  if (server->alive) {
    g_atomic_int_inc(&server->refs);
    g_main_context_invoke_full(server->context, G_PRIORITY_HIGH, quit_loop, server, release);
  }
  g_mutex_unlock(&server->lock);
  mpris_server_unref(server);
}
