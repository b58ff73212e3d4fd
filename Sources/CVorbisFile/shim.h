#include <vorbis/vorbisfile.h>
