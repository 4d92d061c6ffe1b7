// PNG bytes in memory → straight-alpha RGBA8 with libpng's low-level reader.
// Hostile input ends in a status code: user limits are set before IHDR is read.
#include <stdlib.h>
#include <string.h>
#include "cpng_internal.h"

/// Upper bound for one ancillary chunk (iCCP, zTXt, ...) after decompression;
/// larger chunks are skipped with a warning, never allocated.
static const png_alloc_size_t cpng_chunk_malloc_max = 4u * 1024u * 1024u;
/// At most this many ancillary chunks are kept (libpng default is 1000).
static const png_uint_32 cpng_chunk_cache_max = 128;

typedef struct {
    const uint8_t *data;
    size_t size;
    size_t offset;
    cpng_context *context;
} cpng_reader;

static void cpng_read_fn(png_structp png, png_bytep out, size_t length) {
    cpng_reader *reader = (cpng_reader *)png_get_io_ptr(png);
    if (length > reader->size - reader->offset) {
        reader->context->truncated = 1;
        png_error(png, "PNG data ends early (truncated)");
    }
    memcpy(out, reader->data + reader->offset, length);
    reader->offset += length;
}

/// Transforms every colour type and depth to 8-bit RGBA (libpng manual §IV).
static void cpng_request_rgba8(png_structp png, png_infop info) {
    int color_type = png_get_color_type(png, info);
    int bit_depth = png_get_bit_depth(png, info);
    int has_trns = png_get_valid(png, info, PNG_INFO_tRNS) != 0;

    if (color_type == PNG_COLOR_TYPE_PALETTE) png_set_palette_to_rgb(png);
    if (color_type == PNG_COLOR_TYPE_GRAY && bit_depth < 8) png_set_expand_gray_1_2_4_to_8(png);
    if (has_trns) png_set_tRNS_to_alpha(png);
    if (bit_depth == 16) png_set_scale_16(png); // rounds: v16 * 255 / 65535
    if (color_type == PNG_COLOR_TYPE_GRAY || color_type == PNG_COLOR_TYPE_GRAY_ALPHA) {
        png_set_gray_to_rgb(png);
    }
    if (!(color_type & PNG_COLOR_MASK_ALPHA) && !has_trns) {
        png_set_add_alpha(png, 0xff, PNG_FILLER_AFTER);
    }
    (void)png_set_interlace_handling(png); // Adam7: libpng runs the passes
}

int cpng_decode_rgba8(const uint8_t *data, size_t size,
                      uint8_t *out, uint32_t width, uint32_t height,
                      uint32_t max_dimension, cpng_status *status) {
    cpng_context context = {status, 0, 0};
    cpng_reader reader = {data, size, 0, &context};
    cpng_set_status(status, CPNG_OK, "");
    if (width == 0 || height == 0 || width > max_dimension || height > max_dimension) {
        cpng_set_status(status, CPNG_TOO_LARGE, "dimensions exceed the decoder limit");
        return CPNG_TOO_LARGE;
    }
    png_bytep *rows = malloc(sizeof(png_bytep) * height);
    if (rows == NULL) {
        cpng_set_status(status, CPNG_NO_MEMORY, "cannot allocate row pointers");
        return CPNG_NO_MEMORY;
    }
    for (uint32_t y = 0; y < height; y++) rows[y] = out + (size_t)y * width * 4;

    png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, &context,
                                             cpng_error_fn, cpng_warning_fn);
    png_infop info = png ? png_create_info_struct(png) : NULL;
    if (png == NULL || info == NULL) {
        png_destroy_read_struct(png ? &png : NULL, NULL, NULL);
        free(rows);
        cpng_set_status(status, CPNG_NO_MEMORY, "cannot create libpng read structs");
        return CPNG_NO_MEMORY;
    }
    if (setjmp(png_jmpbuf(png))) {
        int code = cpng_classify(&context);
        status->code = code;
        png_destroy_read_struct(&png, &info, NULL);
        free(rows);
        return code;
    }
    png_set_user_limits(png, max_dimension, max_dimension);
    png_set_chunk_malloc_max(png, cpng_chunk_malloc_max);
    png_set_chunk_cache_max(png, cpng_chunk_cache_max);
    png_set_read_fn(png, &reader, cpng_read_fn);

    png_read_info(png, info);
    if (png_get_image_width(png, info) != width || png_get_image_height(png, info) != height) {
        png_error(png, "IHDR dimensions differ from the ones peeked");
    }
    cpng_request_rgba8(png, info);
    png_read_update_info(png, info);
    if (png_get_rowbytes(png, info) != (size_t)width * 4) {
        png_error(png, "unexpected row size after RGBA8 transforms");
    }
    png_read_image(png, rows);
    png_read_end(png, NULL); // checks the CRCs up to IEND

    png_destroy_read_struct(&png, &info, NULL);
    free(rows);
    return CPNG_OK;
}
