// Status helpers, libpng error hooks and the header peek.
#include <string.h>
#include "cpng_internal.h"

static const uint8_t png_signature_bytes[8] = {137, 80, 78, 71, 13, 10, 26, 10};

void cpng_set_status(cpng_status *status, int code, const char *message) {
    status->code = code;
    strncpy(status->message, message ? message : "", sizeof status->message - 1);
    status->message[sizeof status->message - 1] = '\0';
}

void cpng_error_fn(png_structp png, png_const_charp message) {
    cpng_context *context = (cpng_context *)png_get_error_ptr(png);
    cpng_set_status(context->status, CPNG_CORRUPT, message);
    png_longjmp(png, 1);
}

void cpng_warning_fn(png_structp png, png_const_charp message) {
    cpng_context *context = (cpng_context *)png_get_error_ptr(png);
    if (message != NULL && strstr(message, "exceeds user limit") != NULL) {
        context->too_large = 1;
    }
}

int cpng_classify(const cpng_context *context) {
    const char *message = context->status->message;
    if (context->truncated) return CPNG_TRUNCATED;
    if (context->too_large) return CPNG_TOO_LARGE;
    if (strstr(message, "memory") != NULL || strstr(message, "Out of") != NULL) return CPNG_NO_MEMORY;
    return CPNG_CORRUPT;
}

static uint32_t read_be32(const uint8_t *bytes) {
    return ((uint32_t)bytes[0] << 24) | ((uint32_t)bytes[1] << 16) |
           ((uint32_t)bytes[2] << 8) | (uint32_t)bytes[3];
}

// PNG spec §5.2 signature, §11.2.2: IHDR is the first chunk, 13 bytes long.
int cpng_peek_size(const uint8_t *data, size_t size,
                   uint32_t *width, uint32_t *height, cpng_status *status) {
    if (size < 8 || memcmp(data, png_signature_bytes, 8) != 0) {
        cpng_set_status(status, CPNG_NOT_PNG, "missing PNG signature");
        return CPNG_NOT_PNG;
    }
    if (size < 24) {
        cpng_set_status(status, CPNG_TRUNCATED, "data ends inside the IHDR chunk");
        return CPNG_TRUNCATED;
    }
    if (read_be32(data + 8) != 13 || memcmp(data + 12, "IHDR", 4) != 0) {
        cpng_set_status(status, CPNG_NOT_PNG, "first chunk is not a 13-byte IHDR");
        return CPNG_NOT_PNG;
    }
    *width = read_be32(data + 16);
    *height = read_be32(data + 20);
    if (*width == 0 || *height == 0 || *width > 0x7fffffffu || *height > 0x7fffffffu) {
        cpng_set_status(status, CPNG_CORRUPT, "IHDR width or height is 0 or above 2^31-1");
        return CPNG_CORRUPT;
    }
    cpng_set_status(status, CPNG_OK, "");
    return CPNG_OK;
}

int cpng_rgba8_is_opaque(const uint8_t *pixels, size_t count) {
    for (size_t i = 0; i < count; i++) {
        if (pixels[i * 4 + 3] != 255) return 0;
    }
    return 1;
}
