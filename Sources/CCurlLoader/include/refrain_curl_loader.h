#ifndef REFRAIN_CURL_LOADER_H
#define REFRAIN_CURL_LOADER_H
/* libcurl, loaded on first use (see curl_loader.c). It defines libcurl's own functions for
 * FoundationNetworking; Swift sees only the check below. */

/* Opens libcurl now unless it is open: 1 when the network can be used, else 0 with a
 * one-line reason in `reason` (at most `size` bytes, NUL-terminated). Never aborts. */
int refrain_curl_load(char *reason, unsigned long size);
#endif
