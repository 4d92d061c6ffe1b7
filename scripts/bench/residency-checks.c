// residency-checks.c FILE PAGES [touch]: what asking the page cache about PAGES pages of FILE
// costs a call, four ways, 200,000 calls each at random offsets: mincore of the file's mapping
// (how the MBTiles layer checks a row's pages; with "touch", every page of the mapping touched
// first, as a busy reader's mapping is), cachestat of the byte range (how the folder layer
// checks a tile file, Linux 6.5), a 1-byte preadv2 with RWF_NOWAIT, and getppid (a system call
// that does nothing). Build and run (docs/performance.md, stop 36):
//   gcc -O2 -o /tmp/residency-checks scripts/bench/residency-checks.c
//   cat /tmp/tilelayer-working-set/tiles.mbtiles >/dev/null
//   /tmp/residency-checks /tmp/tilelayer-working-set/tiles.mbtiles 10
//   /tmp/residency-checks /tmp/tilelayer-working-set/tiles.mbtiles 10 touch
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

#ifndef SYS_cachestat
#define SYS_cachestat 451
#endif
struct cachestat_range { unsigned long long off, len; };
struct cachestat { unsigned long long nr_cache, nr_dirty, nr_writeback, nr_evicted, nr_recently_evicted; };

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e9 + t.tv_nsec;
}

int main(int argc, char **argv) {
    if (argc < 3) { fprintf(stderr, "usage: %s FILE PAGES [touch]\n", argv[0]); return 2; }
    int f = open(argv[1], O_RDONLY);
    if (f < 0) { perror(argv[1]); return 2; }
    off_t size = lseek(f, 0, SEEK_END);
    const char *map = mmap(0, size, PROT_READ, MAP_SHARED, f, 0);
    int pages = atoi(argv[2]), touch = argc > 3 && strcmp(argv[3], "touch") == 0;
    const long page = sysconf(_SC_PAGESIZE);
    if (map == MAP_FAILED || pages < 1 || pages > 64 || size / page <= pages) { fprintf(stderr, "bad file or PAGES\n"); return 2; }
    const int calls = 200000;
    long span = size / page - pages, sum = 0;
    unsigned char states[64], byte[1];
    unsigned r = 1;
    // Each way asked once first: a way that fails here (an older kernel, a seccomp filter, a
    // page not in the page cache) would time its failure.
    struct cachestat_range first = {0, (unsigned long long)pages * page};
    struct cachestat told;
    struct iovec one = {byte, 1};
    if (mincore((void *)map, pages * page, states) != 0) { perror("mincore"); return 1; }
    if (syscall(SYS_cachestat, f, &first, &told, 0) != 0) { perror("cachestat"); return 1; }
    if (preadv2(f, &one, 1, 0, RWF_NOWAIT) != 1) { perror("preadv2 (is the file in the page cache?)"); return 1; }
    if (touch) for (long at = 0; at < size; at += page) sum += map[at];
    long failed = 0;
    double t0 = now();
    for (int i = 0; i < calls; i++) { r = r * 1103515245 + 12345; failed += mincore((void *)(map + (r >> 4) % span * page), pages * page, states) != 0; }
    double t1 = now();
    for (int i = 0; i < calls; i++) {
        r = r * 1103515245 + 12345;
        struct cachestat_range range = {(r >> 4) % span * page, (unsigned long long)pages * page};
        struct cachestat answer;
        failed += syscall(SYS_cachestat, f, &range, &answer, 0) != 0;
    }
    double t2 = now();
    for (int i = 0; i < calls; i++) {
        r = r * 1103515245 + 12345;
        failed += preadv2(f, &one, 1, (r >> 4) % span * page, RWF_NOWAIT) != 1;
    }
    double t3 = now();
    for (int i = 0; i < calls; i++) sum += getppid();
    double t4 = now();
    printf("%d pages%s: mincore %.0f ns, cachestat %.0f ns, preadv2 (1 byte) %.0f ns, getppid %.0f ns a call; %ld calls failed (%ld)\n",
           pages, touch ? ", mapping touched" : "", (t1 - t0) / calls, (t2 - t1) / calls, (t3 - t2) / calls, (t4 - t3) / calls,
           failed, sum);
    return 0;
}
