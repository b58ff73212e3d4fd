#ifndef REFRAIN_CURL_LOADER_H
#define REFRAIN_CURL_LOADER_H
/* libcurl, loaded on first use (see curl_loader.c). It defines libcurl's own functions for
 * FoundationNetworking; nothing is declared here for Swift. */
#endif
