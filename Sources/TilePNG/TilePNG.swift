// TilePNG: PNG decode/encode over libpng (the CPNGCodec C target) and exact RGBA8
// image operations. Pure functions on immutable values; libpng's longjmp never reaches Swift.
internal import CPNGCodec
