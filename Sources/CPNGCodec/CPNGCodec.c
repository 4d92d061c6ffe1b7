#include "CPNGCodec.h"
#include <png.h>
