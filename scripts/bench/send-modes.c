// send-modes.c: what sending a 36 KB tile body costs the sender over loopback, three ways:
//   0  writev of the head and the body's 9 segments of a mapped file, each 4,092 bytes after a
//      page's 4-byte lead (how an MBTiles blob lies in its overflow pages; one copy)
//   1  send of the head (MSG_MORE), vmsplice of the 9 mapped segments into a pipe, splice of
//      the pipe to the socket (the pages referenced, not copied)
//   2  send of the head (MSG_MORE), sendfile of a contiguous file (how nginx sends a tile file)
// One connection, request and answer in turn (with STREAM=1 in the environment: no requests,
// the answers back to back while the client drains them on its own thread, so the sender's
// CPU is not mostly the turn's wake-ups); prints the sending thread's CPU (user + system,
// getrusage) a response. With SPREAD=FILE each response's 9 pages are taken at a pseudo-random
// place in FILE (the same sequence every run), e.g. the working set's 0.8 GB MBTiles file,
// mapped whole with MAP_POPULATE, which reads it in before the timing: the bytes are then
// mostly not in the CPU's caches, as in a working set larger than they are (only writev's
// sender reads them; vmsplice and sendfile hand on the pages). Without SPREAD every response
// sends the same 36 KB, always cached.
// Build and run (docs/performance.md, stops 35, 36 and 37):
//   head -c 36864 /dev/urandom >/tmp/vs/data
//   gcc -O2 -o /tmp/vs/send-modes scripts/bench/send-modes.c -lpthread
//   for i in 1 2 3 4 5; do for m in 0 1 2; do /tmp/vs/send-modes $m 100000; done; done | sort
//   for i in 1 2 3 4 5; do for m in 0 1 2; do STREAM=1 /tmp/vs/send-modes $m 200000; done; done | sort
//   f=/tmp/tilelayer-working-set/tiles.mbtiles
//   for i in 1 2 3 4 5 6 7; do for m in 0 1 2; do SPREAD=$f STREAM=1 /tmp/vs/send-modes $m 150000; done; done | sort
#define _GNU_SOURCE
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <sys/sendfile.h>
#include <time.h>
#include <unistd.h>

#define SEGS 9
#define PAGE 4096
#define SEG (PAGE - 4)
static int port = 9797, iterations = 200000, mode, stream;
static size_t body = SEGS * SEG;
static char head[200];
static int headlen;

static void *client(void *arg) {
    int s = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = htons(port), .sin_addr.s_addr = htonl(0x7f000001)};
    while (connect(s, (void *)&a, sizeof a) != 0) usleep(1000);
    int one = 1; setsockopt(s, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    static char buf[1 << 17];
    if (stream) {
        size_t want = (size_t)iterations * (headlen + body), got = 0;
        while (got < want) { ssize_t n = recv(s, buf, sizeof buf, 0); if (n <= 0) exit(3); got += n; }
    }
    for (int i = 0; i < iterations && !stream; i++) {
        send(s, "GET / HTTP/1.1\r\n\r\n", 18, 0);
        size_t want = headlen + body, got = 0;
        while (got < want) { ssize_t n = recv(s, buf, sizeof buf, 0); if (n <= 0) exit(3); got += n; }
    }
    close(s);
    return NULL;
}

int main(int argc, char **argv) {
    mode = atoi(argv[1]);
    stream = getenv("STREAM") != NULL && atoi(getenv("STREAM")) == 1;
    if (argc > 2) iterations = atoi(argv[2]);
    const char *spread = getenv("SPREAD");
    const char *path = spread ? spread : "/tmp/vs/data";
    int f = open(path, O_RDONLY);
    off_t fsize = f < 0 ? -1 : lseek(f, 0, SEEK_END);
    if (fsize < SEGS * PAGE) { fprintf(stderr, "send-modes: %s: not readable, or under %d pages\n", path, SEGS); return 1; }
    size_t maplen = spread ? (size_t)fsize : SEGS * PAGE;
    char *base = mmap(NULL, maplen, PROT_READ, MAP_SHARED | (spread ? MAP_POPULATE : 0), f, 0);
    if (base == MAP_FAILED) { perror("send-modes: mmap"); return 1; }
    long places = spread ? (long)(fsize / PAGE) - SEGS + 1 : 1;  // where 9 whole pages start
    srand(7);
    headlen = snprintf(head, sizeof head, "HTTP/1.1 200 OK\r\nContent-Type: image/png\r\nContent-Length: %zu\r\n\r\n", body);
    int l = socket(AF_INET, SOCK_STREAM, 0), one = 1;
    setsockopt(l, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = htons(port), .sin_addr.s_addr = htonl(0x7f000001)};
    bind(l, (void *)&a, sizeof a); listen(l, 8);
    pthread_t t; pthread_create(&t, NULL, client, NULL);
    int c = accept(l, NULL, NULL);
    setsockopt(c, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    int p[2]; pipe(p); fcntl(p[0], F_SETPIPE_SZ, 1 << 20);
    char req[256];
    struct rusage r0, r1; getrusage(RUSAGE_THREAD, &r0);
    long calls = 0;
    for (int i = 0; i < iterations; i++) {
        size_t got = 0;
        while (!stream && got < 18) { ssize_t n = recv(c, req, sizeof req, 0); if (n <= 0) return 2; got += n; calls++; }
        long at = rand() % places;
        char *map = base + at * PAGE;
        struct iovec v[SEGS + 1];
        v[0].iov_base = head; v[0].iov_len = headlen;
        for (int k = 0; k < SEGS; k++) { v[k + 1].iov_base = map + k * PAGE + 4; v[k + 1].iov_len = SEG; }
        if (mode == 0) {
            size_t left = headlen + body; struct iovec *iv = v; int cnt = SEGS + 1;
            while (left) { ssize_t n = writev(c, iv, cnt); calls++; if (n < 0) return 4; left -= n;
                while (n > 0 && cnt) { if ((size_t)n >= iv->iov_len) { n -= iv->iov_len; iv++; cnt--; } else { iv->iov_base = (char *)iv->iov_base + n; iv->iov_len -= n; n = 0; } } }
        } else if (mode == 2) {
            send(c, head, headlen, MSG_MORE); calls++;
            off_t o = at * PAGE; size_t left = body;
            while (left) { ssize_t m = sendfile(c, f, &o, left); calls++; if (m <= 0) return 7; left -= m; }
        } else {
            send(c, head, headlen, MSG_MORE); calls++;
            ssize_t n = vmsplice(p[1], v + 1, SEGS, 0); calls++;
            if (n != (ssize_t)body) { fprintf(stderr, "vmsplice %zd\n", n); return 5; }
            size_t left = body;
            while (left) { ssize_t m = splice(p[0], NULL, c, NULL, left, SPLICE_F_MOVE); calls++; if (m <= 0) { perror("splice"); return 6; } left -= m; }
        }
    }
    getrusage(RUSAGE_THREAD, &r1);
    double us = (r1.ru_utime.tv_sec - r0.ru_utime.tv_sec) * 1e6 + (r1.ru_utime.tv_usec - r0.ru_utime.tv_usec)
              + (r1.ru_stime.tv_sec - r0.ru_stime.tv_sec) * 1e6 + (r1.ru_stime.tv_usec - r0.ru_stime.tv_usec);
    printf("mode %s: %.2f us server CPU a response, %.2f syscalls\n", mode == 1 ? "vmsplice+splice" : mode == 2 ? "sendfile" : "writev", us / iterations, (double)calls / iterations);
    pthread_join(t, NULL);
    return 0;
}
