#define _GNU_SOURCE
#include "CSQLiteNoWait.h"

#include <string.h>
#include <sys/uio.h>

/// Copies `count` bytes of `pieces` from byte `skip` of them on into `out`: 0, or -1 when the
/// pieces hold fewer.
static int copy_pieces(const struct iovec *pieces, int piece_count, long skip, void *out, long count) {
    unsigned char *to = out;
    for (int index = 0; index < piece_count && count > 0; index++) {
        long length = (long)pieces[index].iov_len;
        if (skip >= length) {
            skip -= length;
            continue;
        }
        long take = length - skip < count ? length - skip : count;
        memcpy(to, (const unsigned char *)pieces[index].iov_base + skip, (size_t)take);
        to += take;
        count -= take;
        skip = 0;
    }
    return count == 0 ? 0 : -1;
}

#ifdef __linux__
#include "nowait_file.h"

#include <setjmp.h>
#include <signal.h>
#include <stdint.h>
#include <sys/mman.h>
#include <fcntl.h>
#include <sys/fsuid.h>
#include <sys/stat.h>
#include <unistd.h>

// A row's value lent where it lies in the file, mapped read-only, instead of read into memory
// of the process: whoever answers with it hands the pieces to writev, and the kernel copies the
// page cache's bytes into the socket, once (a read, then a write of what it read, copies them
// twice). The same B-tree walk as nowait_row.c finds the value; its overflow chain is followed
// in the mapping.
//
// Two things a mapping does that a read does not, and what is done about them:
// - Touching a page that is not in the page cache waits for the disk. Each run of overflow
//   pages is checked with mincore before any of it is touched, unless it was found there
//   within the file's residency trust (nowait_residency.c); a page not there makes the value
//   WOULD_WAIT, as a read would.
//   mincore tells the truth only of a file the process owns or may open for writing: of
//   any other mapping the kernel says every page is there (Linux 5.0 on, mm/mincore.c
//   `can_do_mincore`), so a file of another owner, read-only (a container's user serving
//   root's tiles), is never lent from (`mincore_tells`): its values are read with preadv2.
// - Touching a page past the end of a file cut short raises SIGBUS. SQLite never shortens the
//   file while the lock is held, but something else may (a `cp` over it, a `truncate`). The
//   reads of the mapping made here (the chain's links, a lent value's copy) run guarded: the
//   fault jumps back to the read, which fails. writev from such a page fails with EFAULT, not a
//   signal.

static _Thread_local long values_lent;
static _Thread_local long faults_caught;
static _Thread_local long runs_asked_with_leaf;

long csqlite_nowait_values_lent(void) { return values_lent; }
long csqlite_nowait_faults_caught(void) { return faults_caught; }
long csqlite_nowait_runs_asked_with_leaf(void) { return runs_asked_with_leaf; }

// MARK: Guarded reads

/// Where a guarded read on this thread jumps to when it faults; null outside one.
static __attribute__((tls_model("initial-exec"))) _Thread_local sigjmp_buf *volatile guard;
/// The SIGBUS action before ours: a fault outside a guarded read is handed to it.
static struct sigaction earlier;

static void on_bus(int signal, siginfo_t *info, void *context) {
    (void)signal; (void)info; (void)context;
    sigjmp_buf *jump = guard;
    if (jump != 0) {
        guard = 0;
        siglongjmp(*jump, 1);
    }
    // Not ours: the earlier action back, and the faulting instruction runs again into it.
    sigaction(SIGBUS, &earlier, 0);
}

void nowait_guard_install(void) {
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_sigaction = on_bus;
    sigemptyset(&action.sa_mask);
    // SA_NODEFER: the jump out leaves SIGBUS unblocked (sigsetjmp does not save the mask, which
    // would cost a system call per guarded read).
    action.sa_flags = SA_SIGINFO | SA_NODEFER | SA_ONSTACK;
    sigaction(SIGBUS, &action, &earlier);
}

void nowait_guard(void *jump) { guard = jump; }

void nowait_fault_caught(void) { faults_caught++; }

int csqlite_nowait_copy_lent(const struct iovec *pieces, int piece_count, long skip, void *out, long count) {
    sigjmp_buf jump;
    if (sigsetjmp(jump, 0) != 0) {
        faults_caught++;
        return -1;
    }
    guard = &jump;
    int code = copy_pieces(pieces, piece_count, skip, out, count);
    guard = 0;
    return code;
}

/// The first `pages` links of the chain's run from `from` (one a page, `page_size` apart) into
/// `links`: 0, or -1 when the mapping faulted.
static int read_links(const unsigned char *from, long page_size, long pages, unsigned *links) {
    sigjmp_buf jump;
    if (sigsetjmp(jump, 0) != 0) {
        faults_caught++;
        return -1;
    }
    guard = &jump;
    for (long index = 0; index < pages; index++) {
        const unsigned char *link = from + index * page_size;
        links[index] = (unsigned)link[0] << 24 | (unsigned)link[1] << 16 | (unsigned)link[2] << 8 | link[3];
    }
    guard = 0;
    return 0;
}

// MARK: The mapping

void nowait_unmap(NoWaitFile *file) {
    if (file->map != 0) munmap((void *)file->map, (size_t)file->mapped);
    file->map = 0;
    file->mapped = 0;
}

void csqlite_nowait_unmap(NoWaitFile *file) {
    if (file != 0) nowait_unmap(file);
}

/// `map_through`'s answer when it let an older mapping go: pointers into that one are void.
#define MAPPED_AGAIN 1

/// Maps the file (again) when the mapping does not reach `end`: 0, MAPPED_AGAIN, or ASK_SQLITE
/// when the file does not reach it either, or cannot be mapped. Only while no value lent from
/// the old mapping is still in use (the caller holds the file's connection, which lends one at
/// a time).
static int map_through(NoWaitFile *self, long end) {
    if (end <= self->mapped) return 0;
    struct stat status;
    if (fstat(self->fd, &status) != 0 || status.st_size < end) return CSQLITE_NOWAIT_ASK_SQLITE;
    int again = self->map != 0 ? MAPPED_AGAIN : 0;
    nowait_unmap(self);
    void *map = mmap(0, (size_t)status.st_size, PROT_READ, MAP_SHARED, self->fd, 0);
    if (map == MAP_FAILED) return CSQLITE_NOWAIT_ASK_SQLITE;
    self->map = map;
    self->mapped = status.st_size;
    // Device and inode, and the inode's change time: an inode number freed (a file replaced by
    // rename, the old one closed) and taken by a new file is not the same file to the memo.
    self->identity = nowait_file_identity((uint64_t)status.st_dev, (uint64_t)status.st_ino,
                                          (uint64_t)status.st_ctim.tv_sec, (uint64_t)status.st_ctim.tv_nsec);
    return again;
}

/// Whether mincore tells the calling thread which of `fd`'s pages are in the page cache, as
/// the kernel decides (`can_do_mincore`): the file is the thread's filesystem user's, or it may
/// open it for writing. (The kernel also tells a holder of CAP_FOWNER; not asked here: a file
/// that only that would tell of is read instead, never wrongly lent.)
static int mincore_tells(int fd) {
    struct stat status;
    if (fd < 0 || fstat(fd, &status) != 0) return 0;
    uid_t fsuid = (uid_t)setfsuid((uid_t)-1);  // an invalid id changes nothing: the current one
    if (status.st_uid == fsuid) return 1;
    return faccessat(fd, "", W_OK, AT_EACCESS | AT_EMPTY_PATH) == 0;
}

/// `mincore_tells` of `self`'s file, asked once (the process's user does not change).
static int tells(NoWaitFile *self) {
    if (self->mincore_tells < 0) self->mincore_tells = mincore_tells(self->fd);
    return self->mincore_tells;
}

static long system_page_size(void) {
    static long size;
    if (size == 0) size = sysconf(_SC_PAGESIZE);
    return size;
}

/// Whether every page of the `count` bytes at `from` in the mapping is in the page cache.
static int resident(const unsigned char *map, long from, long count) {
    long system_page = system_page_size();
    uintptr_t start = ((uintptr_t)(map + from)) & ~(uintptr_t)(system_page - 1);
    uintptr_t end = (uintptr_t)(map + from + count);
    unsigned char states[256];
    while (start < end) {
        long pages = (long)((end - start + (uintptr_t)system_page - 1) / (uintptr_t)system_page);
        if (pages > (long)sizeof states) pages = (long)sizeof states;
        if (mincore((void *)start, (size_t)(pages * system_page), states) != 0) return 0;
        for (long index = 0; index < pages; index++)
            if ((states[index] & 1) == 0) return 0;
        start += (uintptr_t)(pages * system_page);
    }
    return 1;
}

/// `resident` for the `count` bytes at `from` of `self`'s mapping, or found so less than the
/// file's residency trust ago (`nowait_recently_resident`; noted when found now).
static int resident_lately(NoWaitFile *self, long from, long count) {
    uint64_t key = nowait_residency_key(self, RESIDENT_BYTES, (uint64_t)from, (uint64_t)count);
    if (nowait_recently_resident(self, key)) return 1;
    if (!resident(self->map, from, count)) return 0;
    nowait_note_resident(self, key);
    return 1;
}

const unsigned char *nowait_mapped(NoWaitFile *self, long offset, long count) {
    if (self->map == 0 || offset < 0 || offset + count > self->mapped || !resident_lately(self, offset, count)) return 0;
    return self->map + offset;
}

/// Pages of a chain looked at together, at most (one mincore and one guarded read of links).
#define RUN_PAGES 256

/// System pages besides a leaf's and a run's that one mincore for both may also span, at most:
/// mincore looks a page up in the page cache when the mapping of it was never touched (about
/// 45 ns on a 2-vCPU AMD EPYC VM), where a system call costs about 1 µs.
#define SPAN_SLACK_PAGES 16

/// Whether `states` (mincore's, for the system pages from `base` on) says every page of the
/// `count` bytes at `at` is in the page cache.
static int all_in(const unsigned char *states, uintptr_t base, const unsigned char *at, long count, long system_page) {
    long first = (long)(((uintptr_t)at - base) / (uintptr_t)system_page);
    long last = (long)(((uintptr_t)at + (uintptr_t)count - 1 - base) / (uintptr_t)system_page);
    for (long index = first; index <= last; index++)
        if ((states[index] & 1) == 0) return 0;
    return 1;
}

const unsigned char *nowait_mapped_with_run(NoWaitFile *self, unsigned leaf, unsigned first, long pages) {
    RowPages *rows = &self->rows;
    long page_size = rows->page_size;
    if (page_size == 0 || leaf == 0 || first == 0 || pages <= 0 || pages > RUN_PAGES) return 0;
    long leaf_at = (long)(leaf - 1) * page_size, run_at = (long)(first - 1) * page_size;
    long run_end = run_at + pages * page_size;
    long from = leaf_at < run_at ? leaf_at : run_at;
    long to = leaf_at + page_size > run_end ? leaf_at + page_size : run_end;
    long system_page = system_page_size();
    if ((to - from) - (run_end - run_at) - page_size > SPAN_SLACK_PAGES * system_page) return 0;
    // Mapped again if a reader no read took let its mapping go (the lend maps it anyway), when
    // mincore tells of this file (else the lend reads the value instead).
    if (!tells(self) || map_through(self, to) < 0) return 0;
    // The leaf and the run, found whole a moment ago (`nowait_recently_resident`): not asked again.
    uint64_t key = nowait_residency_key(self, RESIDENT_LEAF_AND_RUN, leaf, (uint64_t)first << 9 | (uint64_t)pages);
    int run_whole = nowait_recently_resident(self, key);
    if (!run_whole) {
        uintptr_t base = (uintptr_t)(self->map + from) & ~(uintptr_t)(system_page - 1);
        long count = (long)(((uintptr_t)(self->map + to) - base + (uintptr_t)system_page - 1) / (uintptr_t)system_page);
        unsigned char states[256];
        if (count > (long)sizeof states || mincore((void *)base, (size_t)(count * system_page), states) != 0) return 0;
        if (!all_in(states, base, self->map + leaf_at, page_size, system_page)) return 0;
        // A run not all there is not noted: the lend asks for it again, and waits.
        run_whole = all_in(states, base, self->map + run_at, pages * page_size, system_page);
        if (run_whole) nowait_note_resident(self, key);
    }
    if (run_whole) {
        rows->resident_run_first = first;
        rows->resident_run_pages = pages;
    }
    return self->map + leaf_at;
}

int csqlite_nowait_lent_in_mapping(NoWaitFile *self, const struct iovec *pieces, int count) {
    if (self == 0 || self->map == 0) return 0;
    for (int index = 0; index < count; index++) {
        const unsigned char *at = pieces[index].iov_base;
        if (at < self->map || at + pieces[index].iov_len > self->map + self->mapped) return 0;
    }
    return 1;
}

int csqlite_nowait_lend_value(NoWaitFile *self, struct iovec *pieces, int capacity) {
    if (self == 0 || self->fd < 0 || self->lock < SQLITE_LOCK_SHARED || self->rows.value_count < 0)
        return CSQLITE_NOWAIT_ASK_SQLITE;
    if (!tells(self)) return CSQLITE_NOWAIT_ASK_SQLITE;
    RowPages *rows = &self->rows;
    long start = rows->value_at, end = rows->value_at + rows->value_count;  // in the payload
    long local = rows->local_count;
    long done = 0;  // bytes of the value lent
    int count = 0;
    if (start < local && start < end) {
        if (capacity < 1) return CSQLITE_NOWAIT_ASK_SQLITE;
        done = (end < local ? end : local) - start;
        // The cell's page, held by the row reader until it reads another page.
        pieces[count++] = (struct iovec){(void *)(rows->cell_page + rows->local_at + start), (size_t)done};
    }
    long page_size = rows->page_size;
    long data = rows->usable - OVERFLOW_LINK_BYTES;
    unsigned number = rows->first_overflow;
    long at = local;  // where page `number`'s bytes start in the payload
    while (start + done < end) {
        if (number == 0) return CSQLITE_NOWAIT_ASK_SQLITE;  // the chain ends early
        // A run of pages from `number` on, as if the chain went on through adjacent pages.
        long pages = (end - at + data - 1) / data;
        if (pages > RUN_PAGES) pages = RUN_PAGES;
        long from = (long)(number - 1) * page_size;
        int code = map_through(self, from + pages * page_size);
        if (code < 0) {
            // The run may go past the file's end where the chain does not: only its first page.
            pages = 1;
            code = map_through(self, from + page_size);
            if (code < 0) return code;
        }
        // The file grew since it was mapped, and was mapped again: the pieces lent so far (the
        // cell's may lie in the leaf as the old mapping held it) are void. The value is read
        // instead; the next lend of it finds its pages in the new mapping.
        if (code == MAPPED_AGAIN && count > 0) return CSQLITE_NOWAIT_ASK_SQLITE;
        // Asked for already with the leaf (`nowait_mapped_with_run`), or now.
        int asked = number == rows->resident_run_first && pages <= rows->resident_run_pages;
        if (asked) runs_asked_with_leaf++;
        else if (!resident_lately(self, from, pages * page_size)) return CSQLITE_NOWAIT_WOULD_WAIT;
        unsigned links[RUN_PAGES];
        if (read_links(self->map + from, page_size, pages, links) != 0) return CSQLITE_NOWAIT_ASK_SQLITE;
        long kept = 0;  // pages after the first that follow it in the chain
        while (kept < pages - 1 && links[kept] == number + (unsigned)kept + 1) kept++;
        for (long index = 0; index <= kept; index++) {
            long page_at = at + index * data;
            long skip = start + done > page_at ? start + done - page_at : 0;  // bytes before the value
            if (skip >= data) continue;
            long take = end - (page_at + skip);
            if (take > data - skip) take = data - skip;
            if (take <= 0) break;
            if (count == capacity) return CSQLITE_NOWAIT_ASK_SQLITE;
            pieces[count++] = (struct iovec){
                (void *)(self->map + from + index * page_size + OVERFLOW_LINK_BYTES + skip), (size_t)take};
            done += take;
        }
        at += (kept + 1) * data;
        number = links[kept];
    }
    rows->value_count = -1;
    values_lent++;
    return count;
}

#else

int csqlite_nowait_lend_value(struct NoWaitFile *file, struct iovec *pieces, int capacity) {
    (void)file; (void)pieces; (void)capacity;
    return CSQLITE_NOWAIT_ASK_SQLITE;
}

int csqlite_nowait_copy_lent(const struct iovec *pieces, int piece_count, long skip, void *out, long count) {
    return copy_pieces(pieces, piece_count, skip, out, count);
}

void csqlite_nowait_unmap(struct NoWaitFile *file) { (void)file; }
long csqlite_nowait_values_lent(void) { return 0; }
long csqlite_nowait_faults_caught(void) { return 0; }
long csqlite_nowait_runs_asked_with_leaf(void) { return 0; }

#endif
