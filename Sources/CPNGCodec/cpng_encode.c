// Rows of samples → PNG bytes in a growable malloc'd buffer, with control over
// zlib level and row filters (only the low-level libpng API offers both).
#include <stdlib.h>
#include <string.h>
#include "cpng_internal.h"

typedef struct {
    cpng_buffer *buffer;
    cpng_context *context;
} cpng_writer;

static void cpng_write_fn(png_structp png, png_bytep bytes, size_t length) {
    cpng_writer *writer = (cpng_writer *)png_get_io_ptr(png);
    cpng_buffer *buffer = writer->buffer;
    if (length > buffer->capacity - buffer->size) {
        size_t capacity = buffer->capacity ? buffer->capacity : 4096;
        while (capacity - buffer->size < length) capacity *= 2;
        uint8_t *grown = realloc(buffer->data, capacity);
        if (grown == NULL) png_error(png, "Out of memory growing the output buffer");
        buffer->data = grown;
        buffer->capacity = capacity;
    }
    memcpy(buffer->data + buffer->size, bytes, length);
    buffer->size += length;
}

static void cpng_flush_fn(png_structp png) { (void)png; }

void cpng_buffer_free(cpng_buffer *buffer) {
    free(buffer->data);
    buffer->data = NULL;
    buffer->size = 0;
    buffer->capacity = 0;
}

static int cpng_params_valid(const cpng_encode_params *p, cpng_status *status) {
    if (p->width == 0 || p->height == 0 || p->width > 0x7fffffffu || p->height > 0x7fffffffu) {
        cpng_set_status(status, CPNG_INVALID_ARGUMENT, "width and height must be 1...2^31-1");
        return 0;
    }
    if (p->compression_level < 0 || p->compression_level > 9) {
        cpng_set_status(status, CPNG_INVALID_ARGUMENT, "compression level must be 0...9");
        return 0;
    }
    if ((p->filters & ~CPNG_FILTER_ALL) != 0 || p->filters == 0) {
        cpng_set_status(status, CPNG_INVALID_ARGUMENT, "filter mask must be a non-empty CPNG_FILTER_* set");
        return 0;
    }
    if (p->color_type == CPNG_COLOR_PALETTE &&
        (p->palette == NULL || p->palette_entries < 1 || p->palette_entries > 256)) {
        cpng_set_status(status, CPNG_INVALID_ARGUMENT, "palette images need 1...256 palette entries");
        return 0;
    }
    return 1;
}

/// Sets the ancillary chunks that describe the samples: PLTE and tRNS.
static void cpng_write_palette_and_trns(png_structp png, png_infop info, const cpng_encode_params *p) {
    if (p->color_type == CPNG_COLOR_PALETTE) {
        png_color colors[256];
        for (int i = 0; i < p->palette_entries; i++) {
            colors[i].red = p->palette[i * 3];
            colors[i].green = p->palette[i * 3 + 1];
            colors[i].blue = p->palette[i * 3 + 2];
        }
        png_set_PLTE(png, info, colors, p->palette_entries);
        if (p->trns_alpha != NULL && p->trns_alpha_entries > 0) {
            png_set_tRNS(png, info, p->trns_alpha, p->trns_alpha_entries, NULL);
        }
    } else if (p->has_trns_color) {
        png_color_16 color = {0, p->trns_red, p->trns_green, p->trns_blue, p->trns_gray};
        png_set_tRNS(png, info, NULL, 0, &color);
    }
}

int cpng_encode(const uint8_t *rows, size_t row_stride,
                const cpng_encode_params *params,
                cpng_buffer *out, cpng_status *status) {
    cpng_context context = {status, 0, 0};
    cpng_writer writer = {out, &context};
    out->data = NULL;
    out->size = 0;
    out->capacity = 0;
    cpng_set_status(status, CPNG_OK, "");
    if (!cpng_params_valid(params, status)) return status->code;

    png_bytep *row_pointers = malloc(sizeof(png_bytep) * params->height);
    if (row_pointers == NULL) {
        cpng_set_status(status, CPNG_NO_MEMORY, "cannot allocate row pointers");
        return CPNG_NO_MEMORY;
    }
    for (uint32_t y = 0; y < params->height; y++) {
        row_pointers[y] = (png_bytep)(rows + (size_t)y * row_stride);
    }
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, &context,
                                              cpng_error_fn, cpng_warning_fn);
    png_infop info = png ? png_create_info_struct(png) : NULL;
    if (png == NULL || info == NULL) {
        png_destroy_write_struct(png ? &png : NULL, NULL);
        free(row_pointers);
        cpng_set_status(status, CPNG_NO_MEMORY, "cannot create libpng write structs");
        return CPNG_NO_MEMORY;
    }
    if (setjmp(png_jmpbuf(png))) {
        // An invalid colour type / depth pair also lands here ("Invalid bit depth ...").
        status->code = cpng_classify(&context) == CPNG_NO_MEMORY ? CPNG_NO_MEMORY : CPNG_INVALID_ARGUMENT;
        png_destroy_write_struct(&png, &info);
        free(row_pointers);
        cpng_buffer_free(out);
        return status->code;
    }
    png_set_write_fn(png, &writer, cpng_write_fn, cpng_flush_fn);
    png_set_compression_level(png, params->compression_level);
    png_set_filter(png, PNG_FILTER_TYPE_BASE, params->filters);
    png_set_IHDR(png, info, params->width, params->height, params->bit_depth, params->color_type,
                 params->interlace ? PNG_INTERLACE_ADAM7 : PNG_INTERLACE_NONE,
                 PNG_COMPRESSION_TYPE_BASE, PNG_FILTER_TYPE_BASE);
    cpng_write_palette_and_trns(png, info, params);
    png_write_info(png, info);
    if (params->strip_filler) png_set_filler(png, 0, PNG_FILLER_AFTER); // RGBA rows → RGB file
    if (params->interlace) (void)png_set_interlace_handling(png);
    png_write_image(png, row_pointers);
    png_write_end(png, NULL);

    png_destroy_write_struct(&png, &info);
    free(row_pointers);
    return CPNG_OK;
}
