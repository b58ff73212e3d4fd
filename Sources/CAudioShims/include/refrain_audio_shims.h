#ifndef REFRAIN_AUDIO_SHIMS_H
#define REFRAIN_AUDIO_SHIMS_H
#include <stddef.h>
#include <stdint.h>
#include <mpg123.h>

/* mpg123 renames these through macros that Swift cannot see; one-line forwards. */
int refrain_mpg123_open(mpg123_handle *mh, const char *path);
int64_t refrain_mpg123_seek(mpg123_handle *mh, int64_t sample);
int64_t refrain_mpg123_feedseek(mpg123_handle *mh, int64_t sample, int64_t *input_offset);
int64_t refrain_mpg123_length(mpg123_handle *mh);
int refrain_mpg123_set_filesize(mpg123_handle *mh, int64_t size);
#endif
