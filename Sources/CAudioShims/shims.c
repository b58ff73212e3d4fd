#include "refrain_audio_shims.h"
#include <stdio.h>

int refrain_mpg123_open(mpg123_handle *mh, const char *path) { return mpg123_open(mh, path); }

int64_t refrain_mpg123_seek(mpg123_handle *mh, int64_t sample) {
  return (int64_t)mpg123_seek(mh, (off_t)sample, SEEK_SET);
}

int64_t refrain_mpg123_feedseek(mpg123_handle *mh, int64_t sample, int64_t *input_offset) {
  off_t offset = 0;
  off_t result = mpg123_feedseek(mh, (off_t)sample, SEEK_SET, &offset);
  *input_offset = (int64_t)offset;
  return (int64_t)result;
}

int64_t refrain_mpg123_length(mpg123_handle *mh) { return (int64_t)mpg123_length(mh); }


int refrain_mpg123_set_filesize(mpg123_handle *mh, int64_t size) {
  return mpg123_set_filesize(mh, (off_t)size);
}
