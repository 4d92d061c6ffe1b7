// CEpoll: Linux epoll and eventfd for Swift. Glibc's Swift module exports neither, and
// `struct epoll_event` is packed on x86-64, so Swift sees only plain ints here.
#ifndef CEPOLL_H
#define CEPOLL_H

#include <stdint.h>

/// The event bits Swift uses (the values of EPOLLIN etc.).
enum {
    CEPOLL_IN = 0x001,
    CEPOLL_OUT = 0x004,
    CEPOLL_ERR = 0x008,
    CEPOLL_HUP = 0x010,
    CEPOLL_RDHUP = 0x2000,
};

/// A close-on-exec epoll instance, or -1 with errno.
int cepoll_create(void);

/// Adds `fd` with `events`, its event data being `fd` itself. 0 or -1 with errno.
int cepoll_add(int epfd, int fd, uint32_t events);

/// Changes the events of a registered `fd`. 0 or -1 with errno.
int cepoll_modify(int epfd, int fd, uint32_t events);

/// Removes `fd`. 0 or -1 with errno.
int cepoll_remove(int epfd, int fd);

/// Waits up to `timeout_ms` (-1: forever) for at most `capacity` (≤ 512) ready descriptors;
/// writes each one's descriptor and events. Returns the count, 0 on timeout or EINTR, -1 on error.
int cepoll_wait(int epfd, int *fds, uint32_t *events, int capacity, int timeout_ms);

/// A non-blocking, close-on-exec eventfd, or -1 with errno.
int cepoll_eventfd(void);

/// Adds 1 to an eventfd (wakes its waiter).
void cepoll_eventfd_signal(int fd);

/// Resets an eventfd to 0.
void cepoll_eventfd_drain(int fd);

/// accept4 with SOCK_NONBLOCK | SOCK_CLOEXEC.
int cepoll_accept(int fd, void *address, uint32_t *length);

/// sendfile(2): sends up to `count` bytes of file `in_fd` from `offset` to socket `out_fd`
/// without copying them through user space. Returns the bytes sent, or -1 with errno.
long cepoll_sendfile(int out_fd, int in_fd, long offset, long count);

/// writev(2) through sendmsg with MSG_MORE: more data (a sendfile) follows at once, so the
/// kernel holds a small head back to go out with the body instead of in a segment of its own.
/// `iov` points to `count` `struct iovec`. Returns the bytes written, or -1 with errno.
long cepoll_writev_more(int fd, const void *iov, int count);

/// Names the calling thread (first 15 bytes), for `top -H` and debuggers.
void cepoll_name_thread(const char *name);

#endif
