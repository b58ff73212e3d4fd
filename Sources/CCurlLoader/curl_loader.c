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

VARIADIC(curl_easy_getinfo)

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

SLOT(curl_multi_cleanup);
int curl_multi_cleanup(void *multi) { return REAL(int (*)(void *), curl_multi_cleanup)(multi); }

VARIADIC(curl_multi_setopt)

SLOT(curl_multi_add_handle);
int curl_multi_add_handle(void *multi, void *easy) {
  return REAL(int (*)(void *, void *), curl_multi_add_handle)(multi, easy);
}

SLOT(curl_multi_remove_handle);
int curl_multi_remove_handle(void *multi, void *easy) {
  return REAL(int (*)(void *, void *), curl_multi_remove_handle)(multi, easy);
}

SLOT(curl_multi_assign);
int curl_multi_assign(void *multi, int socket, void *pointer) {
  return REAL(int (*)(void *, int, void *), curl_multi_assign)(multi, socket, pointer);
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
