/*
 * libcurl, loaded when the network is first used.
 *
 * Swift's URLSession (FoundationNetworking) calls the 23 libcurl functions below. Linking
 * libcurl loads it and its TLS, Kerberos and LDAP libraries (about 30) into every Refrain
 * process at start-up, though most runs (a scan, `refrain ctl`, the player on local files)
 * never open a connection. These definitions satisfy FoundationNetworking at link time
 * instead, so `make release` can drop libcurl from the binary's needed libraries
 * (`patchelf --remove-needed`); the first call opens libcurl.so.4 and each forwards to the
 * real function.
 *
 * The variadic options take one argument: a long, a pointer or a curl_off_t, each passed in
 * one 64-bit slot, so it is forwarded as a pointer-sized value unchanged.
 *
 * One option is changed on the way: FoundationNetworking names the system's CA bundle as
 * CURLOPT_CAINFO on every handle, and no setting of its own replaces it. When SSL_CERT_FILE
 * names a file, as it does for OpenSSL's tools, that file is passed instead, so a user can
 * trust the certificate of their own server (a room behind a proxy with a private CA).
 *
 * FoundationNetworking's header callback also goes through a wrapper: it refuses a header
 * line with no space after the colon ("icy-name:no name", as Icecast writes them) and fails
 * the whole response, so such a line reaches it with the space added.
 *
 * Its socket callback goes through one too. FoundationNetworking watches a socket with a
 * read and a write DispatchSource, adds the one libcurl asks for and removes neither until
 * libcurl gives the socket up: once a request has been sent (libcurl wanted "writable" to
 * connect and send, then only "readable"), the write source stays, fires at once again and
 * again because the socket is writable, and each time runs libcurl for nothing. The process
 * spins on a CPU for as long as the answer takes: a whole core while a 30 ms search3 is
 * served, or while a track streams at the speed of a slow link. So when libcurl stops
 * wanting a direction it asked for before, the socket is given up and watched afresh for
 * what libcurl wants now (FoundationNetworking handles that pair in a row: libcurl does it
 * too). refrain_curl_rewatch() is that decision.
 */
#include "refrain_curl_loader.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void *library;
static char failure[512];
static pthread_once_t once = PTHREAD_ONCE_INIT;

static void load(void) {
  library = dlopen("libcurl.so.4", RTLD_NOW | RTLD_LOCAL);
  if (library == NULL) {
    const char *reason = dlerror();
    snprintf(failure, sizeof failure,
             "the network needs libcurl (libcurl.so.4), which did not load: %s; install libcurl4",
             reason ? reason : "unknown error");
  }
}

int refrain_curl_load(char *reason, unsigned long size) {
  pthread_once(&once, load);
  if (library != NULL) return 1;
  if (reason != NULL && size > 0) snprintf(reason, size, "%s", failure);
  return 0;
}

/* The real function `name`, looked up once. */
static void *real(const char *name, void **slot) {
  void *function = __atomic_load_n(slot, __ATOMIC_ACQUIRE);
  if (function != NULL) return function;
  pthread_once(&once, load);
  if (library == NULL) {
    /* Callers check refrain_curl_load first; reaching here is a bug, not a user's setup. */
    fprintf(stderr, "refrain: %s\n", failure);
    abort();
  }
  function = dlsym(library, name);
  if (function == NULL) {
    fprintf(stderr, "refrain: libcurl.so.4 has no %s\n", name);
    abort();
  }
  __atomic_store_n(slot, function, __ATOMIC_RELEASE);
  return function;
}

#define REAL(type, name) ((type)real(#name, &name##_slot))
#define SLOT(name) static void *name##_slot

/* `int name(void *handle, int option, ...)`, forwarding its one variadic argument. */
#define VARIADIC(name)                                                          \
  SLOT(name);                                                                   \
  int name(void *handle, int option, ...) {                                     \
    va_list arguments;                                                          \
    va_start(arguments, option);                                                \
    void *value = va_arg(arguments, void *);                                    \
    va_end(arguments);                                                          \
    return REAL(int (*)(void *, int, ...), name)(handle, option, value);        \
  }

SLOT(curl_global_init);
int curl_global_init(long flags) {
  return REAL(int (*)(long), curl_global_init)(flags);
}

SLOT(curl_version);
char *curl_version(void) { return REAL(char *(*)(void), curl_version)(); }

SLOT(curl_version_info);
void *curl_version_info(int age) { return REAL(void *(*)(int), curl_version_info)(age); }

SLOT(curl_free);
void curl_free(void *p) { REAL(void (*)(void *), curl_free)(p); }

/* The CA file the user named in SSL_CERT_FILE, or NULL. */
static const char *user_ca_file(void) {
  const char *file = getenv("SSL_CERT_FILE");
  return file != NULL && file[0] != '\0' ? file : NULL;
}

#define REFRAIN_CURLOPT_CAINFO 10065 /* CURLOPTTYPE_STRINGPOINT (10000) + 65 in curl.h */

#define REFRAIN_CURLOPT_HEADERFUNCTION 20079 /* CURLOPTTYPE_FUNCTIONPOINT + 79 */

typedef size_t (*header_callback)(char *, size_t, size_t, void *);
/* FoundationNetworking's header callback (one function for every handle). */
static header_callback foundation_header;

/* Hands a header line to FoundationNetworking with a space after its colon when it had
 * none ("name:value" becomes "name: value"); every other line goes unchanged. */
static size_t header_with_space(char *buffer, size_t size, size_t count, void *userdata) {
  header_callback next = __atomic_load_n(&foundation_header, __ATOMIC_ACQUIRE);
  size_t length = size * count;
  char *colon = memchr(buffer, ':', length);
  if (colon == NULL || colon == buffer || colon + 1 >= buffer + length || colon[1] == ' ' ||
      colon[1] == '\t' || colon[1] == '\r' || buffer[0] == ' ' || buffer[0] == '\t' ||
      memchr(buffer, ' ', (size_t)(colon - buffer)) != NULL || length > 16384)
    return next(buffer, size, count, userdata);
  char fixed[16386];
  size_t head = (size_t)(colon - buffer) + 1;
  memcpy(fixed, buffer, head);
  fixed[head] = ' ';
  memcpy(fixed + head + 1, colon + 1, length - head);
  return next(fixed, 1, length + 1, userdata) == length + 1 ? length : 0;
}

SLOT(curl_easy_setopt);
int curl_easy_setopt(void *handle, int option, ...) {
  va_list arguments;
  va_start(arguments, option);
  void *value = va_arg(arguments, void *);
  va_end(arguments);
  if (option == REFRAIN_CURLOPT_CAINFO && user_ca_file() != NULL) value = (void *)user_ca_file();
  if (option == REFRAIN_CURLOPT_HEADERFUNCTION && value != NULL &&
      value != (void *)header_with_space) {
    __atomic_store_n(&foundation_header, (header_callback)value, __ATOMIC_RELEASE);
    value = (void *)header_with_space;
  }
  return REAL(int (*)(void *, int, ...), curl_easy_setopt)(handle, option, value);
}

SLOT(curl_easy_init);
void *curl_easy_init(void) {
  void *handle = REAL(void *(*)(void), curl_easy_init)();
  if (handle != NULL && user_ca_file() != NULL)
    REAL(int (*)(void *, int, ...), curl_easy_setopt)(handle, REFRAIN_CURLOPT_CAINFO,
                                                      (void *)user_ca_file());
  return handle;
}

SLOT(curl_easy_cleanup);
void curl_easy_cleanup(void *easy) { REAL(void (*)(void *), curl_easy_cleanup)(easy); }

#define REFRAIN_CURLINFO_CONTENT_LENGTH_DOWNLOAD 0x30000F /* CURLINFO_DOUBLE + 15 */

/* FoundationNetworking turns the Content-Length libcurl reports (a double) into an Int64
 * without a check, and traps on one it cannot hold: a server's `Content-Length:
 * 9223372036854775807` would end the process. Such a length is reported as unknown (-1,
 * as libcurl does for none); libcurl itself still holds the body to the header. */
SLOT(curl_easy_getinfo);
int curl_easy_getinfo(void *handle, int info, ...) {
  va_list arguments;
  va_start(arguments, info);
  void *value = va_arg(arguments, void *);
  va_end(arguments);
  int result = REAL(int (*)(void *, int, ...), curl_easy_getinfo)(handle, info, value);
  if (result == 0 && info == REFRAIN_CURLINFO_CONTENT_LENGTH_DOWNLOAD && value != NULL) {
    double *length = value;
    if (!(*length < 9.0e18)) *length = -1;
  }
  return result;
}

SLOT(curl_easy_pause);
int curl_easy_pause(void *easy, int bitmask) {
  return REAL(int (*)(void *, int), curl_easy_pause)(easy, bitmask);
}

SLOT(curl_easy_strerror);
const char *curl_easy_strerror(int code) {
  return REAL(const char *(*)(int), curl_easy_strerror)(code);
}

SLOT(curl_multi_init);
void *curl_multi_init(void) { return REAL(void *(*)(void), curl_multi_init)(); }

SLOT(curl_multi_assign);
int curl_multi_assign(void *multi, int socket, void *pointer) {
  return REAL(int (*)(void *, int, void *), curl_multi_assign)(multi, socket, pointer);
}

/* curl.h's CURL_POLL_* values and the two multi options the relay takes over. */
enum { POLL_NONE = 0, POLL_IN = 1, POLL_OUT = 2, POLL_INOUT = 3, POLL_REMOVE = 4 };
#define REFRAIN_CURLMOPT_SOCKETFUNCTION 20001 /* CURLOPTTYPE_FUNCTIONPOINT + 1 */
#define REFRAIN_CURLMOPT_SOCKETDATA 10002     /* CURLOPTTYPE_OBJECTPOINT + 2 */

int refrain_curl_rewatch(int watched, int wanted) {
  if (wanted == POLL_REMOVE) return 0;
  int before = watched & POLL_INOUT, now = wanted & POLL_INOUT;
  return (before & ~now) != 0;
}

typedef int (*socket_callback)(void *easy, int socket, int what, void *data, void *socketp);

/* What the relay knows of one multi handle: FoundationNetworking's callback and its data,
 * and what each socket is watched for (sockets past the table pass straight through). */
struct socket_relay {
  void *multi;
  socket_callback next;
  void *data;
  unsigned char watched[1024];
  struct socket_relay *later;
};

static pthread_mutex_t relays_lock = PTHREAD_MUTEX_INITIALIZER;
static struct socket_relay *relays;

/* The relay of `multi`, made on first use (NULL only when out of memory). */
static struct socket_relay *relay_of(void *multi) {
  pthread_mutex_lock(&relays_lock);
  struct socket_relay *relay = relays;
  while (relay != NULL && relay->multi != multi) relay = relay->later;
  if (relay == NULL && (relay = calloc(1, sizeof *relay)) != NULL) {
    relay->multi = multi;
    relay->later = relays;
    relays = relay;
  }
  pthread_mutex_unlock(&relays_lock);
  return relay;
}

/* libcurl's socket callback, run on the multi handle's queue (one at a time per handle). */
static int relay_socket(void *easy, int socket, int what, void *data, void *socketp) {
  struct socket_relay *relay = data;
  if (relay->next == NULL) return 0;
  if (socket < 0 || socket >= (int)sizeof relay->watched)
    return relay->next(easy, socket, what, relay->data, socketp);
  int status;
  if (socketp != NULL && refrain_curl_rewatch(relay->watched[socket], what)) {
    relay->next(easy, socket, POLL_REMOVE, relay->data, socketp);
    curl_multi_assign(relay->multi, socket, NULL);
    status = what == POLL_NONE ? 0 : relay->next(easy, socket, what, relay->data, NULL);
  } else {
    status = relay->next(easy, socket, what, relay->data, socketp);
  }
  relay->watched[socket] = what == POLL_REMOVE ? POLL_NONE : (unsigned char)(what & POLL_INOUT);
  return status;
}

SLOT(curl_multi_setopt);
int curl_multi_setopt(void *multi, int option, ...) {
  va_list arguments;
  va_start(arguments, option);
  void *value = va_arg(arguments, void *);
  va_end(arguments);
  int (*set)(void *, int, ...) = REAL(int (*)(void *, int, ...), curl_multi_setopt);
  if (option == REFRAIN_CURLMOPT_SOCKETDATA || option == REFRAIN_CURLMOPT_SOCKETFUNCTION) {
    struct socket_relay *relay = relay_of(multi);
    if (relay != NULL) {
      if (option == REFRAIN_CURLMOPT_SOCKETDATA) {
        relay->data = value;
      } else {
        relay->next = (socket_callback)value;
        int status = set(multi, REFRAIN_CURLMOPT_SOCKETFUNCTION,
                         value == NULL ? NULL : (void *)relay_socket);
        if (status != 0) return status;
      }
      return set(multi, REFRAIN_CURLMOPT_SOCKETDATA, (void *)relay);
    }
  }
  return set(multi, option, value);
}

SLOT(curl_multi_cleanup);
int curl_multi_cleanup(void *multi) {
  int status = REAL(int (*)(void *), curl_multi_cleanup)(multi);
  pthread_mutex_lock(&relays_lock);
  for (struct socket_relay **link = &relays; *link != NULL; link = &(*link)->later) {
    if ((*link)->multi == multi) {
      struct socket_relay *gone = *link;
      *link = gone->later;
      free(gone);
      break;
    }
  }
  pthread_mutex_unlock(&relays_lock);
  return status;
}

SLOT(curl_multi_add_handle);
int curl_multi_add_handle(void *multi, void *easy) {
  return REAL(int (*)(void *, void *), curl_multi_add_handle)(multi, easy);
}

SLOT(curl_multi_remove_handle);
int curl_multi_remove_handle(void *multi, void *easy) {
  return REAL(int (*)(void *, void *), curl_multi_remove_handle)(multi, easy);
}

SLOT(curl_multi_info_read);
void *curl_multi_info_read(void *multi, int *queued) {
  return REAL(void *(*)(void *, int *), curl_multi_info_read)(multi, queued);
}

SLOT(curl_multi_socket_action);
int curl_multi_socket_action(void *multi, int socket, int events, int *running) {
  return REAL(int (*)(void *, int, int, int *), curl_multi_socket_action)(
      multi, socket, events, running);
}

SLOT(curl_slist_append);
void *curl_slist_append(void *list, const char *text) {
  return REAL(void *(*)(void *, const char *), curl_slist_append)(list, text);
}

SLOT(curl_slist_free_all);
void curl_slist_free_all(void *list) { REAL(void (*)(void *), curl_slist_free_all)(list); }

SLOT(curl_url);
void *curl_url(void) { return REAL(void *(*)(void), curl_url)(); }

SLOT(curl_url_get);
int curl_url_get(const void *url, int part, char **value, unsigned int flags) {
  return REAL(int (*)(const void *, int, char **, unsigned int), curl_url_get)(
      url, part, value, flags);
}

SLOT(curl_url_set);
int curl_url_set(void *url, int part, const char *value, unsigned int flags) {
  return REAL(int (*)(void *, int, const char *, unsigned int), curl_url_set)(
      url, part, value, flags);
}
