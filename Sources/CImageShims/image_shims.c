#include "refrain_image_shims.h"

#include <png.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <jpeglib.h>
#include <jerror.h>

void refrain_image_free(void *pointer) { free(pointer); }

static void copy_message(char *dst, const char *src) {
  snprintf(dst, 160, "%s", src ? src : "");
}

static int exceeds(refrain_image_limits limits, uint32_t width, uint32_t height) {
  return width == 0 || height == 0 || width > limits.max_side || height > limits.max_side ||
         (uint64_t)width * (uint64_t)height > limits.max_pixels;
}

/* ---------------------------------------------------------------- PNG */

typedef struct {
  const uint8_t *data;
  size_t size, offset;
  int truncated;
  char *message;
} png_source;

static void png_read_memory(png_structp png, png_bytep dst, size_t count) {
  png_source *src = png_get_io_ptr(png);
  if (count > src->size - src->offset) {
    src->truncated = 1;
    png_error(png, "the data ends inside the image");
  }
  memcpy(dst, src->data + src->offset, count);
  src->offset += count;
}

static void png_quiet_error(png_structp png, png_const_charp text) {
  png_source *src = png_get_error_ptr(png);
  if (src && src->message) copy_message(src->message, text);
  png_longjmp(png, 1);
}

static void png_quiet_warning(png_structp png, png_const_charp text) {
  (void)png;
  (void)text;
}

int refrain_png_decode(const uint8_t *data, size_t size, refrain_image_limits limits,
                       uint8_t bg_r, uint8_t bg_g, uint8_t bg_b, refrain_image *out) {
  memset(out, 0, sizeof *out);
  png_source src = {data, size, 0, 0, out->message};
  png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, &src, png_quiet_error,
                                           png_quiet_warning);
  if (!png) return REFRAIN_IMAGE_NO_MEMORY;
  png_infop info = png_create_info_struct(png);
  /* volatile: read after a longjmp. */
  uint8_t *volatile pixels = NULL;
  png_bytep *volatile rows = NULL;
  volatile int status = REFRAIN_IMAGE_CORRUPT;
  if (!info) {
    png_destroy_read_struct(&png, NULL, NULL);
    return REFRAIN_IMAGE_NO_MEMORY;
  }
  if (setjmp(png_jmpbuf(png))) {
    free(pixels);
    free(rows);
    png_destroy_read_struct(&png, &info, NULL);
    if (status == REFRAIN_IMAGE_CORRUPT && src.truncated) return REFRAIN_IMAGE_TRUNCATED;
    return status;
  }
  png_set_read_fn(png, &src, png_read_memory);
  /* The caller's limits decide; libpng's own default (1,000,000 a side) would error first. */
  png_set_user_limits(png, 0x7fffffff, 0x7fffffff);
  png_read_info(png, info);
  png_uint_32 width = png_get_image_width(png, info);
  png_uint_32 height = png_get_image_height(png, info);
  out->source_width = width;
  out->source_height = height;
  if (exceeds(limits, width, height)) {
    snprintf(out->message, 160, "%ux%u", (unsigned)width, (unsigned)height);
    status = REFRAIN_IMAGE_TOO_LARGE;
    png_longjmp(png, 1);
  }
  png_set_expand(png);        /* palette → RGB, tRNS → alpha, grey < 8 bits → 8 */
  png_set_scale_16(png);      /* 16 → 8 bits */
  png_set_gray_to_rgb(png);
  png_set_interlace_handling(png);
  png_read_update_info(png, info);
  size_t channels = png_get_channels(png, info);
  size_t rowbytes = png_get_rowbytes(png, info);
  if ((channels != 3 && channels != 4) || rowbytes != (size_t)width * channels) {
    copy_message(out->message, "unexpected PNG layout");
    png_longjmp(png, 1);
  }
  pixels = malloc((size_t)height * rowbytes);
  rows = malloc(sizeof(png_bytep) * height);
  if (!pixels || !rows) {
    status = REFRAIN_IMAGE_NO_MEMORY;
    png_longjmp(png, 1);
  }
  for (png_uint_32 y = 0; y < height; y++) rows[y] = pixels + (size_t)y * rowbytes;
  png_read_image(png, rows);
  /* The trailing chunks are not needed; a file cut after the pixels still shows. */
  if (channels == 4) {
    /* Composite over the background in place: the RGB output never overtakes the input. */
    size_t count = (size_t)width * height;
    uint8_t *p = pixels;
    for (size_t i = 0; i < count; i++) {
      unsigned a = pixels[i * 4 + 3];
      p[i * 3 + 0] = (uint8_t)((pixels[i * 4 + 0] * a + bg_r * (255 - a) + 127) / 255);
      p[i * 3 + 1] = (uint8_t)((pixels[i * 4 + 1] * a + bg_g * (255 - a) + 127) / 255);
      p[i * 3 + 2] = (uint8_t)((pixels[i * 4 + 2] * a + bg_b * (255 - a) + 127) / 255);
    }
  }
  free(rows);
  rows = NULL;
  png_destroy_read_struct(&png, &info, NULL);
  out->width = width;
  out->height = height;
  out->pixels = pixels;
  return REFRAIN_IMAGE_OK;
}

/* ---------------------------------------------------------------- PNG encoding */

typedef struct {
  uint8_t *data;
  size_t size, capacity;
  int failed;
  char *message;
} png_sink;

static void png_write_memory(png_structp png, png_bytep bytes, size_t count) {
  png_sink *sink = png_get_io_ptr(png);
  if (sink->size + count > sink->capacity) {
    size_t capacity = sink->capacity ? sink->capacity : 4096;
    while (capacity < sink->size + count) capacity *= 2;
    uint8_t *grown = realloc(sink->data, capacity);
    if (!grown) {
      sink->failed = 1;
      png_error(png, "out of memory");
    }
    sink->data = grown;
    sink->capacity = capacity;
  }
  memcpy(sink->data + sink->size, bytes, count);
  sink->size += count;
}

static void png_flush_nothing(png_structp png) { (void)png; }

static void png_encode_error(png_structp png, png_const_charp text) {
  png_sink *sink = png_get_error_ptr(png);
  if (sink && sink->message) copy_message(sink->message, text);
  png_longjmp(png, 1);
}

int refrain_png_encode_rgb(const uint8_t *rgb, uint32_t width, uint32_t height,
                           uint8_t **out, size_t *out_size, char message[160]) {
  *out = NULL;
  *out_size = 0;
  message[0] = 0;
  png_sink sink = {NULL, 0, 0, 0, message};
  png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, &sink, png_encode_error,
                                            png_quiet_warning);
  if (!png) return REFRAIN_IMAGE_NO_MEMORY;
  png_infop info = png_create_info_struct(png);
  if (!info || setjmp(png_jmpbuf(png))) {
    png_destroy_write_struct(&png, &info);
    free(sink.data);
    return sink.failed ? REFRAIN_IMAGE_NO_MEMORY : REFRAIN_IMAGE_CORRUPT;
  }
  png_set_write_fn(png, &sink, png_write_memory, png_flush_nothing);
  png_set_IHDR(png, info, width, height, 8, PNG_COLOR_TYPE_RGB, PNG_INTERLACE_NONE,
               PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
  png_write_info(png, info);
  for (uint32_t y = 0; y < height; y++) png_write_row(png, rgb + (size_t)y * width * 3);
  png_write_end(png, NULL);
  png_destroy_write_struct(&png, &info);
  *out = sink.data;
  *out_size = sink.size;
  return REFRAIN_IMAGE_OK;
}

/* ---------------------------------------------------------------- JPEG */

typedef struct {
  struct jpeg_error_mgr base;
  jmp_buf jump;
  int truncated;
  char *message;
} jpeg_quiet_error;

static void jpeg_error_exit_quietly(j_common_ptr cinfo) {
  jpeg_quiet_error *err = (jpeg_quiet_error *)cinfo->err;
  if (err->base.msg_code == JERR_INPUT_EMPTY) err->truncated = 1;
  char text[JMSG_LENGTH_MAX];
  err->base.format_message(cinfo, text);
  copy_message(err->message, text);
  longjmp(err->jump, 1);
}

static void jpeg_emit_quietly(j_common_ptr cinfo, int level) {
  jpeg_quiet_error *err = (jpeg_quiet_error *)cinfo->err;
  /* Level -1 is a warning; the data ending early is the one that matters. */
  if (level < 0) {
    err->base.num_warnings++;
    if (err->base.msg_code == JWRN_JPEG_EOF) err->truncated = 1;
  }
}

static void jpeg_output_nothing(j_common_ptr cinfo) { (void)cinfo; }

/* A progressive file with thousands of scans costs seconds each; no real cover has 100. */
static void jpeg_limit_scans(j_common_ptr cinfo) {
  if (cinfo->is_decompressor && ((j_decompress_ptr)cinfo)->input_scan_number > 100) {
    jpeg_quiet_error *err = (jpeg_quiet_error *)cinfo->err;
    copy_message(err->message, "too many progressive scans");
    longjmp(err->jump, 1);
  }
}

int refrain_jpeg_decode(const uint8_t *data, size_t size, refrain_image_limits limits,
                        uint32_t box_width, uint32_t box_height, refrain_image *out) {
  memset(out, 0, sizeof *out);
  struct jpeg_decompress_struct cinfo;
  jpeg_quiet_error err;
  struct jpeg_progress_mgr progress = {jpeg_limit_scans, 0, 0, 0, 0};
  uint8_t *volatile pixels = NULL;
  uint8_t *volatile row = NULL;
  volatile int status = REFRAIN_IMAGE_CORRUPT;
  cinfo.err = jpeg_std_error(&err.base);
  err.base.error_exit = jpeg_error_exit_quietly;
  err.base.emit_message = jpeg_emit_quietly;
  err.base.output_message = jpeg_output_nothing;
  err.truncated = 0;
  err.message = out->message;
  if (setjmp(err.jump)) {
    free(pixels);
    free(row);
    jpeg_destroy_decompress(&cinfo);
    if (status == REFRAIN_IMAGE_CORRUPT && err.truncated) return REFRAIN_IMAGE_TRUNCATED;
    return status;
  }
  jpeg_create_decompress(&cinfo);
  cinfo.progress = &progress;
  if (size == 0) {
    err.truncated = 1;
    longjmp(err.jump, 1);
  }
  jpeg_mem_src(&cinfo, data, (unsigned long)size);
  jpeg_read_header(&cinfo, TRUE);
  if (err.truncated) longjmp(err.jump, 1);
  out->source_width = cinfo.image_width;
  out->source_height = cinfo.image_height;
  if (exceeds(limits, cinfo.image_width, cinfo.image_height)) {
    snprintf(out->message, 160, "%ux%u", (unsigned)cinfo.image_width,
             (unsigned)cinfo.image_height);
    status = REFRAIN_IMAGE_TOO_LARGE;
    longjmp(err.jump, 1);
  }
  int cmyk = cinfo.jpeg_color_space == JCS_CMYK || cinfo.jpeg_color_space == JCS_YCCK;
  int grey = cinfo.jpeg_color_space == JCS_GRAYSCALE;
  cinfo.out_color_space = cmyk ? JCS_CMYK : grey ? JCS_GRAYSCALE : JCS_RGB;
  if (box_width && box_height) {
    /* The image fitted into the box is `fit` times its size; keep at least twice that. */
    double fit_w = (double)box_width / cinfo.image_width;
    double fit_h = (double)box_height / cinfo.image_height;
    double wanted = 2 * (fit_w < fit_h ? fit_w : fit_h);
    unsigned num = 1;
    while (num < 8 && num < wanted * 8) num++;
    cinfo.scale_num = num;
    cinfo.scale_denom = 8;
  }
  jpeg_start_decompress(&cinfo);
  uint32_t width = cinfo.output_width, height = cinfo.output_height;
  int components = cinfo.output_components;
  pixels = malloc((size_t)width * height * 3);
  row = malloc((size_t)width * components);
  if (!pixels || !row) {
    status = REFRAIN_IMAGE_NO_MEMORY;
    longjmp(err.jump, 1);
  }
  int inverted = cinfo.saw_Adobe_marker;
  while (cinfo.output_scanline < height) {
    uint8_t *dst = pixels + (size_t)cinfo.output_scanline * width * 3;
    JSAMPROW rows[1] = {components == 3 ? dst : row};
    if (jpeg_read_scanlines(&cinfo, rows, 1) != 1) break;
    if (components == 1) {
      for (uint32_t x = 0; x < width; x++) dst[x * 3] = dst[x * 3 + 1] = dst[x * 3 + 2] = row[x];
    } else if (components == 4) {
      for (uint32_t x = 0; x < width; x++) {
        unsigned c = row[x * 4], m = row[x * 4 + 1], y = row[x * 4 + 2], k = row[x * 4 + 3];
        if (!inverted) c = 255 - c, m = 255 - m, y = 255 - y, k = 255 - k;
        /* Stored inverted (Adobe): each value is 255 − ink, so colour = value × (255 − K ink). */
        dst[x * 3] = (uint8_t)((c * k + 127) / 255);
        dst[x * 3 + 1] = (uint8_t)((m * k + 127) / 255);
        dst[x * 3 + 2] = (uint8_t)((y * k + 127) / 255);
      }
    }
    if (err.truncated) break;
  }
  if (err.truncated || cinfo.output_scanline < height) {
    err.truncated = 1;
    copy_message(out->message, "the data ends inside the image");
    longjmp(err.jump, 1);
  }
  jpeg_finish_decompress(&cinfo);
  if (err.truncated) longjmp(err.jump, 1);
  jpeg_destroy_decompress(&cinfo);
  free(row);
  out->width = width;
  out->height = height;
  out->pixels = pixels;
  return REFRAIN_IMAGE_OK;
}
