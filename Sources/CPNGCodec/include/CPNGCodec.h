// CPNGCodec: libpng calls whose setjmp/longjmp error handling must stay in C.
#pragma once
