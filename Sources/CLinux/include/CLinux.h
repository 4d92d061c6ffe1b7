// CLinux: the Linux calls Glibc's Swift module does not export (epoll, eventfd, accept4,
// sendfile, glibc's malloc tuning). `struct epoll_event` is packed on x86-64, so Swift sees only
// plain ints here.
#ifndef CLINUX_H
#define CLINUX_H

#include <stdint.h>

/// The event bits Swift uses (the values of EPOLLIN etc.).
enum {
    CLINUX_IN = 0x001,
    CLINUX_OUT = 0x004,
    CLINUX_ERR = 0x008,
    CLINUX_HUP = 0x010,
    CLINUX_RDHUP = 0x2000,
};

/// A close-on-exec epoll instance, or -1 with errno.
int clinux_create(void);

/// Adds `fd` with `events`, its event data being `fd` itself. 0 or -1 with errno.
int clinux_add(int epfd, int fd, uint32_t events);

/// Changes the events of a registered `fd`. 0 or -1 with errno.
int clinux_modify(int epfd, int fd, uint32_t events);

/// Removes `fd`. 0 or -1 with errno.
int clinux_remove(int epfd, int fd);

/// Waits up to `timeout_ms` (-1: forever) for at most `capacity` (≤ 512) ready descriptors;
/// writes each one's descriptor and events. Returns the count, 0 on timeout or EINTR, -1 on error.
int clinux_wait(int epfd, int *fds, uint32_t *events, int capacity, int timeout_ms);

/// A non-blocking, close-on-exec eventfd, or -1 with errno.
int clinux_eventfd(void);

/// Adds 1 to an eventfd (wakes its waiter).
void clinux_eventfd_signal(int fd);

/// Resets an eventfd to 0.
void clinux_eventfd_drain(int fd);

/// accept4 with SOCK_NONBLOCK | SOCK_CLOEXEC.
int clinux_accept(int fd, void *address, uint32_t *length);

/// sendfile(2): sends up to `count` bytes of file `in_fd` from `offset` to socket `out_fd`
/// without copying them through user space. Returns the bytes sent, or -1 with errno.
long clinux_sendfile(int out_fd, int in_fd, long offset, long count);

/// Opens `path` read-only (close-on-exec, non-blocking: a FIFO or device does not wait for its
/// other end) only if its whole lookup can be done from the kernel's caches: openat2(2) with
/// RESOLVE_CACHED (Linux 5.12), as io_uring opens without blocking. -1 with errno EAGAIN when
/// the lookup would need the disk; ENOSYS, EINVAL or EPERM (an older kernel, a seccomp filter)
/// once, then ENOSYS without a call.
int clinux_open_cached(const char *path);

/// Reads up to `count` bytes of `fd` from `offset` only from the page cache: preadv2(2) with
/// RWF_NOWAIT (Linux 4.14), as io_uring reads without blocking. Returns the bytes read (fewer
/// than asked when only part is cached), or -1 with errno EAGAIN when the first page is not
/// cached; EOPNOTSUPP on a filesystem without it; ENOSYS or EINVAL (a kernel without it) once,
/// then ENOSYS without a call.
long clinux_pread_cached(int fd, void *buffer, long count, long offset);

/// Whether the page cache holds every page of the first `count` bytes of file `fd`, so that a
/// sendfile of them needs no disk: cachestat(2) (Linux 6.5). 1 or 0; -1 with errno when it
/// cannot tell: EPERM for a file this process neither owns nor may write (the kernel keeps
/// that from it, as from mincore), EOPNOTSUPP on hugetlbfs, ENOSYS where it cannot be asked at
/// all: an older kernel, or a seccomp filter that refuses it (a container runtime's default
/// may), found once by asking about a memory file of this process's own, then without a call.
int clinux_cached_whole(int fd, long count);

/// Whether the filesystem holding `path` is a local one whose open and fstat of a cached file
/// never wait (ext2/3/4, XFS, Btrfs, tmpfs, overlayfs, ZFS, F2FS, ramfs): not NFS, CIFS or FUSE,
/// whose open may ask a server. 1 or 0 (0 when statfs fails).
int clinux_is_local_filesystem(const char *path);

/// writev(2) through sendmsg with MSG_MORE: more data (a sendfile) follows at once, so the
/// kernel holds a small head back to go out with the body instead of in a segment of its own.
/// `iov` points to `count` `struct iovec`. Returns the bytes written, or -1 with errno.
long clinux_writev_more(int fd, const void *iov, int count);

/// Takes a read lease on file `fd` (opened read-only; fcntl F_SETLEASE, F_RDLCK): no process
/// has the file open for writing now, and none can open it for writing (or truncate it) until
/// `clinux_end_lease`: a writer waits for that (SIGIO, which the lease's breaks send, is
/// ignored). 0, or -1 with errno: EAGAIN when some process has the file open for writing;
/// EACCES when this process neither owns the file nor has CAP_LEASE; EINVAL where the
/// filesystem takes no leases.
int clinux_read_lease(int fd);

/// Ends the lease `clinux_read_lease` took on `fd`.
void clinux_end_lease(int fd);

/// A close-on-exec memory file (memfd_create) of `size` bytes, sparse: memory is taken only for
/// the pages written, without access times (O_NOATIME: a send from it updates none). The
/// descriptor, or -1 with errno.
int clinux_memory_file(const char *name, long size);

/// Frees the pages of `count` bytes of file `fd` from `offset` (fallocate's PUNCH_HOLE, size
/// kept). A page the kernel still holds for a send in progress stays intact until it is sent.
/// 0 or -1 with errno.
int clinux_punch_hole(int fd, long offset, long count);

/// Tunes glibc's malloc for a long-running server whose large buffers (decoded images, tile
/// bodies) come and go: a fixed mmap threshold (256 KiB; buffers above it go back to the system
/// when freed, instead of glibc raising the threshold and keeping them in the heap) and at most
/// `arenas` arenas (threads share heaps instead of each keeping freed memory of its own).
void clinux_tune_malloc(int arenas);

/// Returns the heap's free pages to the system (malloc_trim(0)); 1 if memory was released.
int clinux_release_free_memory(void);

/// Names the calling thread (first 15 bytes), for `top -H` and debuggers.
void clinux_name_thread(const char *name);
/// Sets the calling thread's nice value (Linux threads have one each); 0, or -1 and errno.
int clinux_set_thread_nice(int nice);

/// Sets the calling thread's filesystem user id (setfsuid; the thread alone, not the process)
/// and returns the previous one. For tests that act as another user on one thread.
unsigned clinux_set_thread_fsuid(unsigned uid);

#endif
