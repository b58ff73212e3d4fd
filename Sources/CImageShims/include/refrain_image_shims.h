#ifndef REFRAIN_IMAGE_SHIMS_H
#define REFRAIN_IMAGE_SHIMS_H
#include <stddef.h>
#include <stdint.h>

/* PNG and JPEG decoding and PNG encoding with every libpng/libjpeg error caught here:
   setjmp/longjmp never cross a Swift frame, and nothing is printed to stderr. */

enum {
  REFRAIN_IMAGE_OK = 0,
  REFRAIN_IMAGE_TRUNCATED = 1,   /* the data ended before the image did */
  REFRAIN_IMAGE_CORRUPT = 2,     /* the library rejected the data; see message */
  REFRAIN_IMAGE_TOO_LARGE = 3,   /* the header declares more pixels than allowed */
  REFRAIN_IMAGE_NO_MEMORY = 4,   /* an allocation failed */
};

/* Limits checked against the header, before any pixel buffer is allocated. */
typedef struct {
  uint64_t max_pixels;   /* width × height */
  uint32_t max_side;     /* width and height each */
} refrain_image_limits;

/* A decoded image: 8-bit RGB, rows top to bottom, no padding. `pixels` is malloc'd; free it
   with refrain_image_free. `source_width/height` are the header's size (a scaled JPEG's
   output is smaller). `message` holds the library's text on failure. */
typedef struct {
  uint32_t width, height;
  uint32_t source_width, source_height;
  uint8_t *pixels;
  char message[160];
} refrain_image;

/* PNG: palette, tRNS, 16-bit, interlaced and grey(+alpha) images, alpha composited over
   (bg_r, bg_g, bg_b). */
int refrain_png_decode(const uint8_t *data, size_t size, refrain_image_limits limits,
                       uint8_t bg_r, uint8_t bg_g, uint8_t bg_b, refrain_image *out);

/* JPEG: baseline, progressive, greyscale, CMYK/YCCK (Adobe inverted or plain). When
   box_width/box_height are non-zero, the DCT scale is the smallest n/8 that keeps the
   output at least twice the size the image takes when fitted into that box. */
int refrain_jpeg_decode(const uint8_t *data, size_t size, refrain_image_limits limits,
                        uint32_t box_width, uint32_t box_height, refrain_image *out);

/* Encodes 8-bit RGB as a PNG into a malloc'd buffer (*out, *out_size); free it with
   refrain_image_free. */
int refrain_png_encode_rgb(const uint8_t *rgb, uint32_t width, uint32_t height,
                           uint8_t **out, size_t *out_size, char message[160]);

void refrain_image_free(void *pointer);
#endif
