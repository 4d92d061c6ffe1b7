#ifdef __linux__
#define _GNU_SOURCE
#include "CLinux.h"

#include <errno.h>
#include <fcntl.h>
#include <malloc.h>
#include <pthread.h>
#include <signal.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/mman.h>
#include <sys/eventfd.h>
#include <sys/sendfile.h>
#include <sys/vfs.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/socket.h>
#include <unistd.h>

int clinux_create(void) { return epoll_create1(EPOLL_CLOEXEC); }

static int control(int epfd, int op, int fd, uint32_t events) {
    struct epoll_event event = {.events = events, .data = {.fd = fd}};
    return epoll_ctl(epfd, op, fd, &event);
}

int clinux_add(int epfd, int fd, uint32_t events) { return control(epfd, EPOLL_CTL_ADD, fd, events); }

int clinux_modify(int epfd, int fd, uint32_t events) { return control(epfd, EPOLL_CTL_MOD, fd, events); }

int clinux_remove(int epfd, int fd) { return control(epfd, EPOLL_CTL_DEL, fd, 0); }

int clinux_wait(int epfd, int *fds, uint32_t *events, int capacity, int timeout_ms) {
    struct epoll_event ready[512];
    if (capacity > 512) capacity = 512;
    int n = epoll_wait(epfd, ready, capacity, timeout_ms);
    if (n < 0) return errno == EINTR ? 0 : -1;
    for (int i = 0; i < n; i++) {
        fds[i] = ready[i].data.fd;
        events[i] = ready[i].events;
    }
    return n;
}

int clinux_eventfd(void) { return eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC); }

void clinux_eventfd_signal(int fd) {
    eventfd_t one = 1;
    (void)!write(fd, &one, sizeof one);
}

void clinux_eventfd_drain(int fd) {
    eventfd_t value;
    (void)!read(fd, &value, sizeof value);
}

int clinux_accept(int fd, void *address, uint32_t *length) {
    socklen_t len = *length;
    int client = accept4(fd, (struct sockaddr *)address, &len, SOCK_NONBLOCK | SOCK_CLOEXEC);
    *length = len;
    return client;
}

void clinux_name_thread(const char *name) {
    char short_name[16];
    strncpy(short_name, name, sizeof short_name - 1);
    short_name[sizeof short_name - 1] = 0;
    pthread_setname_np(pthread_self(), short_name);
}

int clinux_set_thread_nice(int nice) {
    return setpriority(PRIO_PROCESS, (id_t)syscall(SYS_gettid), nice);
}

unsigned clinux_set_thread_fsuid(unsigned uid) { return (unsigned)syscall(SYS_setfsuid, uid); }

/// Set once openat2 or RESOLVE_CACHED turned out to be missing or forbidden: no failing call
/// per request after that.
static int open_cached_unsupported;

int clinux_open_cached(const char *path) {
#ifdef SYS_openat2
    if (__atomic_load_n(&open_cached_unsupported, __ATOMIC_RELAXED)) {
        errno = ENOSYS;
        return -1;
    }
    // struct open_how (linux/openat2.h), spelled out: the header is not everywhere.
    // O_NONBLOCK: opening a FIFO or a device must not wait either (a regular file ignores it).
    struct { uint64_t flags, mode, resolve; } how = {O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY, 0,
                                                     0x20 /* RESOLVE_CACHED */};
    int fd = (int)syscall(SYS_openat2, AT_FDCWD, path, &how, sizeof how);
    // ENOSYS: a kernel before 5.6; EINVAL: before 5.12 (no RESOLVE_CACHED); EPERM: a seccomp filter.
    if (fd < 0 && (errno == ENOSYS || errno == EINVAL || errno == EPERM)) {
        __atomic_store_n(&open_cached_unsupported, 1, __ATOMIC_RELAXED);
    }
    return fd;
#else
    (void)path;
    errno = ENOSYS;
    return -1;
#endif
}

/// Set once preadv2 or RWF_NOWAIT turned out to be missing from the kernel: no failing call per
/// request after that.
static int pread_cached_unsupported;

static long preadv_cached(int fd, const struct iovec *buffers, int count, long offset) {
#ifdef RWF_NOWAIT
    if (__atomic_load_n(&pread_cached_unsupported, __ATOMIC_RELAXED)) {
        errno = ENOSYS;
        return -1;
    }
    long n;
    do {
        n = (long)preadv2(fd, buffers, count, (off_t)offset, RWF_NOWAIT);
    } while (n < 0 && errno == EINTR);
    // ENOSYS: no preadv2; EINVAL: no RWF_NOWAIT (before 4.14). EOPNOTSUPP comes from one
    // filesystem, not the kernel: the call fails there only.
    if (n < 0 && (errno == ENOSYS || errno == EINVAL)) {
        __atomic_store_n(&pread_cached_unsupported, 1, __ATOMIC_RELAXED);
    }
    return n;
#else
    (void)fd; (void)buffers; (void)count; (void)offset;
    errno = ENOSYS;
    return -1;
#endif
}

long clinux_pread_cached(int fd, void *buffer, long count, long offset) {
    struct iovec vector = {buffer, (size_t)count};
    return preadv_cached(fd, &vector, 1, offset);
}


#ifndef SYS_cachestat
#define SYS_cachestat 451  /* the same number on every architecture (Linux 6.5) */
#endif

struct cachestat_range_arg { unsigned long long offset, length; };
struct cachestat_answer { unsigned long long cache, dirty, writeback, evicted, recently_evicted; };

/// Whether cachestat can be asked at all: 0 not known yet, 1 yes, 2 no (no failing call per
/// request after that).
static int cached_whole_state;

/// Asks cachestat about a memory file of this process's own, which it always may: ENOSYS (a
/// kernel before 6.5) or EPERM (a seccomp filter that does not know the call, as a container
/// runtime's default may) say it cannot be asked of any file. 1 or 2.
static int cached_whole_probe(void) {
    int fd = memfd_create("tilelayer-cachestat", MFD_CLOEXEC);
    if (fd < 0) return 1;  // no memory file to ask about: each call finds out for itself
    struct cachestat_range_arg range = {0, 1};
    struct cachestat_answer answer;
    int failed = syscall(SYS_cachestat, fd, &range, &answer, 0) != 0 && (errno == ENOSYS || errno == EPERM);
    close(fd);
    return failed ? 2 : 1;
}

int clinux_cached_whole(int fd, long count) {
    if (count <= 0) return 1;
    int state = __atomic_load_n(&cached_whole_state, __ATOMIC_RELAXED);
    if (state == 0) {
        state = cached_whole_probe();
        __atomic_store_n(&cached_whole_state, state, __ATOMIC_RELAXED);
    }
    if (state == 2) {
        errno = ENOSYS;
        return -1;
    }
    struct cachestat_range_arg range = {0, (unsigned long long)count};
    struct cachestat_answer stat;
    if (syscall(SYS_cachestat, fd, &range, &stat, 0) != 0) {
        // EPERM: a file this process neither owns nor may write; EOPNOTSUPP: hugetlbfs; ENOSYS:
        // a filter added since the probe.
        if (errno == ENOSYS) __atomic_store_n(&cached_whole_state, 2, __ATOMIC_RELAXED);
        return -1;
    }
    static long page;  // asked once: this runs for every tile a loop sends from its file
    if (page == 0) page = sysconf(_SC_PAGESIZE);
    unsigned long long pages = ((unsigned long long)count + (unsigned long long)page - 1) / (unsigned long long)page;
    return stat.cache >= pages ? 1 : 0;
}

int clinux_is_local_filesystem(const char *path) {
    struct statfs info;
    if (statfs(path, &info) != 0) return 0;
    switch ((unsigned long)info.f_type) {
    case 0xEF53:      // ext2, ext3, ext4
    case 0x58465342:  // XFS
    case 0x9123683E:  // Btrfs
    case 0x01021994:  // tmpfs
    case 0x794C7630:  // overlayfs
    case 0x2FC12FC1:  // ZFS
    case 0xF2F52010:  // F2FS
    case 0x858458F6:  // ramfs
        return 1;
    default:
        return 0;
    }
}

long clinux_sendfile(int out_fd, int in_fd, long offset, long count) {
    off_t position = offset;
    return sendfile(out_fd, in_fd, &position, (size_t)count);
}

long clinux_writev_more(int fd, const void *iov, int count) {
    struct msghdr message = {0};
    message.msg_iov = (struct iovec *)iov;
    message.msg_iovlen = (size_t)count;
    return sendmsg(fd, &message, MSG_MORE | MSG_NOSIGNAL);
}

int clinux_read_lease(int fd) {
    static int ignoring_sigio;
    if (!__atomic_exchange_n(&ignoring_sigio, 1, __ATOMIC_RELAXED)) signal(SIGIO, SIG_IGN);
    return fcntl(fd, F_SETLEASE, F_RDLCK);
}

void clinux_end_lease(int fd) {
    fcntl(fd, F_SETLEASE, F_UNLCK);
}

int clinux_memory_file(const char *name, long size) {
    int fd = memfd_create(name, MFD_CLOEXEC);
    if (fd < 0) return -1;
    if (ftruncate(fd, (off_t)size) != 0) {
        int saved = errno;
        close(fd);
        errno = saved;
        return -1;
    }
    /* No access time: each sendfile from the file would otherwise check whether to update it. */
    int flags = fcntl(fd, F_GETFL);
    if (flags >= 0) (void)fcntl(fd, F_SETFL, flags | O_NOATIME);
    return fd;
}

int clinux_punch_hole(int fd, long offset, long count) {
    return fallocate(fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, (off_t)offset, (off_t)count);
}

void clinux_tune_malloc(int arenas) {
    mallopt(M_MMAP_THRESHOLD, 256 * 1024);
    if (arenas > 0) mallopt(M_ARENA_MAX, arenas);
}

int clinux_release_free_memory(void) { return malloc_trim(0); }
#endif
