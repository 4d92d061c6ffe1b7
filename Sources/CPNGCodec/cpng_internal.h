// Shared by the decoder and encoder: status helpers and libpng error hooks.
#pragma once

#include <png.h>
#include "CPNGCodec.h"

/// Per-call context reached through png_get_error_ptr.
typedef struct {
    cpng_status *status;
    int truncated; // set by the reader when it ran out of input
    int too_large; // set when libpng warns that a user limit was exceeded
} cpng_context;

void cpng_set_status(cpng_status *status, int code, const char *message);

/// libpng error callback: records the message and longjmps back into C.
void cpng_error_fn(png_structp png, png_const_charp message);

/// libpng warning callback: stays silent, but remembers limit violations.
void cpng_warning_fn(png_structp png, png_const_charp message);

/// Maps a libpng error message (already in status) to a cpng_code.
int cpng_classify(const cpng_context *context);
