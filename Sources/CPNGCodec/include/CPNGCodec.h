// CPNGCodec: libpng calls whose setjmp/longjmp error handling must stay in C.
// Every entry point returns a status code; no longjmp ever leaves this target.
#pragma once

#include <stddef.h>
#include <stdint.h>

/// Result codes of every cpng_* function.
typedef enum {
    CPNG_OK = 0,
    CPNG_NOT_PNG = 1,        // missing PNG signature or IHDR
    CPNG_TRUNCATED = 2,      // data ended before the image was complete
    CPNG_CORRUPT = 3,        // bad CRC, bad zlib stream, invalid header fields, ...
    CPNG_TOO_LARGE = 4,      // a dimension exceeds the caller's limit
    CPNG_NO_MEMORY = 5,      // an allocation failed
    CPNG_INVALID_ARGUMENT = 6 // the caller passed inconsistent parameters
} cpng_code;

/// Error code plus libpng's (or our) message.
typedef struct {
    int code;
    char message[200];
} cpng_status;

/// Reads width and height from the signature + IHDR (first 24 bytes) without
/// decoding or allocating anything.
int cpng_peek_size(const uint8_t *data, size_t size,
                   uint32_t *width, uint32_t *height, cpng_status *status);

/// Decodes any PNG (all colour types, bit depths 1-16, Adam7, tRNS) into
/// straight-alpha RGBA8. `out` must hold width*height*4 bytes, and width and
/// height must be what cpng_peek_size reported. No gamma correction.
int cpng_decode_rgba8(const uint8_t *data, size_t size,
                      uint8_t *out, uint32_t width, uint32_t height,
                      uint32_t max_dimension, cpng_status *status);

/// PNG colour types (PNG spec §11.2.2), same values as libpng's.
enum {
    CPNG_COLOR_GRAY = 0,
    CPNG_COLOR_RGB = 2,
    CPNG_COLOR_PALETTE = 3,
    CPNG_COLOR_GRAY_ALPHA = 4,
    CPNG_COLOR_RGBA = 6
};

/// Row filter masks, same values as libpng's PNG_FILTER_*.
enum {
    CPNG_FILTER_NONE = 0x08,
    CPNG_FILTER_SUB = 0x10,
    CPNG_FILTER_UP = 0x20,
    CPNG_FILTER_AVG = 0x40,
    CPNG_FILTER_PAETH = 0x80,
    CPNG_FILTER_ALL = 0xf8
};

/// What to write. Rows hold packed samples in PNG order (16-bit samples big
/// endian, sub-byte samples packed from the high bit).
typedef struct {
    uint32_t width;
    uint32_t height;
    int color_type;          // CPNG_COLOR_*
    int bit_depth;           // 1, 2, 4, 8, 16 as the colour type allows
    int interlace;           // 0 none, 1 Adam7
    int compression_level;   // zlib 0-9
    int filters;             // CPNG_FILTER_* mask
    int strip_filler;        // 1: rows are RGBA8 but written as RGB (alpha dropped)
    const uint8_t *palette;  // RGB triples, for CPNG_COLOR_PALETTE
    int palette_entries;
    const uint8_t *trns_alpha; // palette alpha values (tRNS), may be NULL
    int trns_alpha_entries;
    int has_trns_color;      // gray/RGB tRNS: the transparent colour
    uint16_t trns_gray, trns_red, trns_green, trns_blue;
} cpng_encode_params;

/// A malloc'd byte buffer owned by the caller; release with cpng_buffer_free.
typedef struct {
    uint8_t *data;
    size_t size;
    size_t capacity;
} cpng_buffer;

/// Encodes rows (row_stride bytes apart) into `out`. On failure `out` is empty.
int cpng_encode(const uint8_t *rows, size_t row_stride,
                const cpng_encode_params *params,
                cpng_buffer *out, cpng_status *status);

/// Frees a buffer filled by cpng_encode; safe on an empty buffer.
void cpng_buffer_free(cpng_buffer *buffer);

/// 1 if every alpha byte of `count` RGBA8 pixels is 255.
int cpng_rgba8_is_opaque(const uint8_t *pixels, size_t count);
