// libwebp's simple decode/encode API (WebPGetInfo, WebPDecodeRGBAInto, WebPEncode*).
#include <webp/decode.h>
#include <webp/encode.h>
