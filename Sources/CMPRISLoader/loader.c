/*
 * The MPRIS plugin (librefrain-mpris.so), opened on first use.
 *
 * GIO, GObject and GLib, with the libraries they bring (libmount, libselinux, libffi,
 * PCRE2), add about 2.7 MiB of resident memory and 10 ms to every start when the binary
 * links them. Only MPRIS needs them, and only when a session bus is there, so they live in
 * the plugin, and this file opens it the first time MPRIS starts. Each refrain_mpris_* call
 * forwards to the plugin's table (refrain_mpris.h).
 *
 * The plugin is looked for beside the running binary (a build directory, or an installed
 * PREFIX/bin with the plugin in PREFIX/lib/refrain).
 */
#include "refrain_mpris.h"

#include <dlfcn.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static const refrain_mpris_api *api;
static char failure[1024];
static pthread_once_t once = PTHREAD_ONCE_INIT;

/* The directory of the running binary, with its trailing slash; 0 when unknown. */
static int binary_directory(char *directory, size_t size) {
  ssize_t length = readlink("/proc/self/exe", directory, size - 1);
  if (length <= 0) return 0;
  directory[length] = '\0';
  char *slash = strrchr(directory, '/');
  if (slash == NULL) return 0;
  slash[1] = '\0';
  return 1;
}

static void load(void) {
  char directory[PATH_MAX];
  if (!binary_directory(directory, sizeof directory)) {
    snprintf(failure, sizeof failure, "the MPRIS plugin was not looked for: /proc/self/exe is unreadable");
    return;
  }
  const char *places[] = {"", "../lib/refrain/"};
  char tried[2][PATH_MAX + 64];
  for (size_t index = 0; index < 2; index++) {
    snprintf(tried[index], sizeof tried[index], "%s%s%s", directory, places[index],
             REFRAIN_MPRIS_PLUGIN_FILE);
    if (access(tried[index], F_OK) != 0) continue;
    void *library = dlopen(tried[index], RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) {
      const char *reason = dlerror();
      snprintf(failure, sizeof failure, "%s did not load: %s (install libglib2.0-0)", tried[index],
               reason ? reason : "unknown error");
      return;
    }
    const refrain_mpris_api *(*table)(void) =
        (const refrain_mpris_api *(*)(void))dlsym(library, REFRAIN_MPRIS_PLUGIN_SYMBOL);
    const refrain_mpris_api *found = table ? table() : NULL;
    if (found == NULL || found->version != REFRAIN_MPRIS_API_VERSION) {
      snprintf(failure, sizeof failure, "%s is from another Refrain version; reinstall Refrain",
               tried[index]);
      dlclose(library);
      return;
    }
    api = found;
    return;
  }
  snprintf(failure, sizeof failure, "the MPRIS plugin is missing: neither %s nor %s exists",
           tried[0], tried[1]);
}

int refrain_mpris_load(char *reason, unsigned long size) {
  pthread_once(&once, load);
  if (api != NULL) return 1;
  if (reason != NULL && size > 0) snprintf(reason, size, "%s", failure);
  return 0;
}

refrain_mpris *refrain_mpris_start(const char *name, const char *fallback_name) {
  if (!refrain_mpris_load(NULL, 0)) return NULL;
  return api->start(name, fallback_name);
}

/* The calls below take a server, which only exists once the plugin is loaded. */
void refrain_mpris_stop(refrain_mpris *server) { api->stop(server); }
int refrain_mpris_wake_fd(const refrain_mpris *server) { return api->wake_fd(server); }
void refrain_mpris_drain_wake(refrain_mpris *server) { api->drain_wake(server); }
int refrain_mpris_take(refrain_mpris *server, refrain_mpris_request *request) {
  return api->take(server, request);
}
void refrain_mpris_request_clear(refrain_mpris_request *request) { api->request_clear(request); }
void refrain_mpris_set_player(refrain_mpris *server, refrain_mpris_player player) {
  api->set_player(server, player);
}
void refrain_mpris_set_position(refrain_mpris *server, int64_t position_us, int32_t advancing,
                                int64_t limit_us) {
  api->set_position(server, position_us, advancing, limit_us);
}
void refrain_mpris_emit_seeked(refrain_mpris *server, int64_t position_us) {
  api->emit_seeked(server, position_us);
}
void refrain_mpris_notify(refrain_mpris *server, const char *summary, const char *body,
                          const char *icon) {
  api->notify(server, summary, body, icon);
}
void refrain_mpris_metadata_begin(refrain_mpris *server) { api->metadata_begin(server); }
void refrain_mpris_metadata_add_path(refrain_mpris *server, const char *key, const char *path) {
  api->metadata_add_path(server, key, path);
}
void refrain_mpris_metadata_add_string(refrain_mpris *server, const char *key, const char *value) {
  api->metadata_add_string(server, key, value);
}
void refrain_mpris_metadata_add_strings(refrain_mpris *server, const char *key,
                                        const char *joined) {
  api->metadata_add_strings(server, key, joined);
}
void refrain_mpris_metadata_add_int64(refrain_mpris *server, const char *key, int64_t value) {
  api->metadata_add_int64(server, key, value);
}
void refrain_mpris_metadata_commit(refrain_mpris *server) { api->metadata_commit(server); }
