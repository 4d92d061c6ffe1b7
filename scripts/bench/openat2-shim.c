// openat2-shim.c: lets tilelayer open files on its event loops under valgrind 3.19, which does
// not know the openat2 system call (tilelayer opens tile files with openat2 RESOLVE_CACHED, and
// without it leaves such reads to its worker threads). Preloaded by
// scripts/bench-instructions.sh into the server it runs under callgrind, it answers openat2 with
// openat (same flags; the files measured are all in the kernel's caches, which is what
// RESOLVE_CACHED would check). Nor does valgrind know cachestat (Linux 6.5), which tells the
// loop that the page cache holds a whole file before it sends it with sendfile; without it the
// loop reads the file into memory and sends that instead. The shim answers it as the kernel
// would for the files measured, read into the page cache first: every page cached. It passes
// every other system call through. For measuring only: the instructions counted are user
// space, where openat and openat2, or a cachestat answered here and by the kernel, cost the same.
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdint.h>
#include <sys/syscall.h>
#include <unistd.h>

#ifndef SYS_cachestat
#define SYS_cachestat 451  // Linux 6.5; older headers do not name it
#endif

long syscall(long number, ...) {
    va_list list;
    va_start(list, number);
    long a[6];
    for (int i = 0; i < 6; i++) a[i] = va_arg(list, long);
    va_end(list);
#ifdef SYS_openat2
    if (number == SYS_openat2) {
        const struct { uint64_t flags, mode, resolve; } *how = (const void *)a[2];
        return openat((int)a[0], (const char *)a[1], (int)how->flags, (mode_t)how->mode);
    }
#endif
    if (number == SYS_cachestat) {  // cachestat(fd, range, answer, flags)
        const struct { uint64_t offset, length; } *range = (const void *)a[1];
        struct { uint64_t cache, dirty, writeback, evicted, recently_evicted; } *answer = (void *)a[2];
        const uint64_t page = (uint64_t)sysconf(_SC_PAGESIZE);
        *answer = (typeof(*answer)){(range->length + page - 1) / page, 0, 0, 0, 0};
        return 0;
    }
    static long (*real)(long, ...);
    if (real == 0) real = (long (*)(long, ...))dlsym(RTLD_NEXT, "syscall");
    return real(number, a[0], a[1], a[2], a[3], a[4], a[5]);
}
