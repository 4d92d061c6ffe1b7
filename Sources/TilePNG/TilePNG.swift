// TilePNG: PNG decode/encode over libpng and RGBA8 image operations.
internal import CPNGCodec
