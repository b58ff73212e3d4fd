#ifndef REFRAIN_CURL_LOADER_H
#define REFRAIN_CURL_LOADER_H
/* libcurl, loaded on first use (see curl_loader.c). It defines libcurl's own functions for
 * FoundationNetworking; Swift sees only the check below. */

/* Opens libcurl now unless it is open: 1 when the network can be used, else 0 with a
 * one-line reason in `reason` (at most `size` bytes, NUL-terminated). Never aborts. */
int refrain_curl_load(char *reason, unsigned long size);

/* Whether a socket watched for `watched` (a CURL_POLL_* value: 0 none, 1 in, 2 out, 3 both)
 * must be given up and watched afresh when libcurl now wants `wanted` (4 is "remove"): 1
 * when libcurl no longer wants a direction it asked for before, since FoundationNetworking
 * would keep watching it (see curl_loader.c). */
int refrain_curl_rewatch(int watched, int wanted);
#endif
