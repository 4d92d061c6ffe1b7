// libjpeg-turbo's TurboJPEG API: errors come back as return codes (no setjmp/longjmp in Swift).
#include <turbojpeg.h>
