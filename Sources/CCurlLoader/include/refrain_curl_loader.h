#ifndef REFRAIN_CURL_LOADER_H
#define REFRAIN_CURL_LOADER_H
/* libcurl, loaded on first use (see curl_loader.c); nothing here is called from Swift. */

/* Whether libcurl has been loaded: a process that never used the network has not. */
int refrain_curl_loaded(void);
#endif
