#define _GNU_SOURCE  // O_NOATIME
#include "CSQLiteNoWait.h"
#include "nowait_file.h"

#include <sqlite3.h>

#ifdef __linux__
#include "CLinux.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <unistd.h>

static sqlite3_vfs *unix_vfs;
static sqlite3_vfs nowait_vfs;
static sqlite3_io_methods nowait_methods;

/// Reads (preadv2 calls) this thread made through the VFS, and pages it lent SQLite
/// (`nowait_fetch`), for tests.
_Thread_local long nowait_reads_made;
static _Thread_local long pages_lent;

long csqlite_nowait_reads(void) { return nowait_reads_made; }
long csqlite_nowait_pages_lent(void) { return pages_lent; }

#define REAL(file) (((NoWaitFile *)(file))->real)

/// A read-ahead buffer: a page and the read-ahead after it.
#define BUFFER_BYTES (MAX_PAGE_SIZE + CSQLITE_NOWAIT_READ_AHEAD_BYTES)

/// Reads the rest of `amount` bytes at `offset` into `out`, the first `done` there already.
static int read_rest(NoWaitFile *self, char *out, int amount, long offset, long done) {
    while (done < amount) {
        nowait_reads_made++;
        long n = clinux_pread_cached(self->fd, out + done, amount - done, offset + done);
        if (n > 0) {
            done += n;
        } else if (n == 0) {
            // Past the end: SQLite wants the rest zeroed and "short read".
            memset(out + done, 0, (size_t)(amount - done));
            return SQLITE_IOERR_SHORT_READ;
        } else {
            // EAGAIN: not all in the page cache; ENOSYS, EINVAL, EOPNOTSUPP: it cannot tell.
            return SQLITE_IOERR_READ;
        }
    }
    return SQLITE_OK;
}

/// Whether the pages read ahead hold the `amount` bytes at `offset`.
static int holds(const ReadAhead *ahead, long offset, int amount) {
    return offset >= ahead->offset && offset + amount <= ahead->offset + ahead->count;
}

/// Copies the read from the pages read ahead when they hold it all; 0 when they do not.
static int read_from_read_ahead(const ReadAhead *ahead, char *out, int amount, long offset) {
    if (!holds(ahead, offset, amount)) return 0;
    memcpy(out, ahead->bytes + (offset - ahead->offset), (size_t)amount);
    return 1;
}

/// Whether a read of `amount` bytes at `offset` is of one whole page (a power of two in
/// SQLite's page sizes, at a multiple of itself).
static int is_page(int amount, long offset) {
    return amount >= MIN_PAGE_SIZE && amount <= MAX_PAGE_SIZE && (amount & (amount - 1)) == 0 && offset % amount == 0;
}

/// Pages the blob can still need after `remaining` of its bytes, at most `most`.
static long pages_needed(long remaining, int amount, long most) {
    long data = amount - OVERFLOW_LINK_BYTES;  // at most an overflow page's share of the blob
    long pages = (remaining + data - 1) / data;
    return pages < most ? pages : most;
}

/// Counts a page of the blob (`amount` bytes) as handed to SQLite.
static void count_down(ReadAhead *ahead, int amount) {
    long data = amount - OVERFLOW_LINK_BYTES;
    ahead->remaining = ahead->remaining > data ? ahead->remaining - data : 0;
}

/// The page at `offset` (`is_page`) of the blob being read, in the pages read ahead, counted
/// down: read there first when they do not hold it, with as many of the pages after it as the
/// blob can still need (one preadv2), unless a page of them is lent. Null when it cannot be had
/// there (then `*code` is SQLITE_OK, and the page is not counted: the caller reads it itself)
/// or the read failed (`*code` says how).
static const char *blob_page(NoWaitFile *self, long offset, int amount, int *code) {
    ReadAhead *ahead = &self->ahead;
    *code = SQLITE_OK;
    if (!holds(ahead, offset, amount)) {
        if (ahead->lent > 0) return 0;
        if (ahead->bytes == 0) ahead->bytes = sqlite3_malloc(BUFFER_BYTES);
        if (ahead->bytes == 0) return 0;
        // This page and those after it, up to the read-ahead's worth.
        long pages = pages_needed(ahead->remaining, amount, 1 + CSQLITE_NOWAIT_READ_AHEAD_BYTES / amount);
        if (pages < 1) pages = 1;
        ahead->count = 0;
        nowait_reads_made++;
        long n = clinux_pread_cached(self->fd, ahead->bytes, pages * amount, offset);
        if (n < 0) {
            *code = SQLITE_IOERR_READ;  // EAGAIN: a page is not in the page cache
            return 0;
        }
        ahead->offset = offset;
        ahead->count = n - n % amount;
        if (!holds(ahead, offset, amount)) return 0;  // the file's end
    }
    count_down(ahead, amount);
    return ahead->bytes + (offset - ahead->offset);
}

/// A page of a blob being read (`is_page`) that SQLite reads into its page cache (no page may
/// be lent now, or lending is off): a copy from the pages read ahead, or read alone.
static int read_blob_page(NoWaitFile *self, char *out, int amount, long offset) {
    int code;
    const char *page = blob_page(self, offset, amount, &code);
    if (page != 0) {
        memcpy(out, page, (size_t)amount);
        return SQLITE_OK;
    }
    if (code != SQLITE_OK) return code;
    count_down(&self->ahead, amount);
    return read_rest(self, out, amount, offset, 0);
}

/// Lends SQLite the page at `offset` (`is_page`) of a blob being read, from the pages read
/// ahead (`blob_page`); `*pointer` stays null (SQLite then reads the page itself,
/// `nowait_read`) when no blob is being read, while another page is lent, or at the file's end.
static int fetch_blob_page(NoWaitFile *self, long offset, int amount, void **pointer) {
    if (self->ahead.remaining < 0 || !is_page(amount, offset)) return SQLITE_OK;
    int code;
    const char *page = blob_page(self, offset, amount, &code);
    if (page == 0) return code;
    *pointer = (void *)page;
    self->ahead.lent++;
    pages_lent++;
    return SQLITE_OK;
}

static int nowait_read(sqlite3_file *file, void *buffer, int amount, sqlite3_int64 offset) {
    NoWaitFile *self = (NoWaitFile *)file;
    if (self->fd < 0) return SQLITE_IOERR_READ;
    ReadAhead *ahead = &self->ahead;
    if (ahead->remaining >= 0) {
        if (is_page(amount, (long)offset)) return read_blob_page(self, buffer, amount, (long)offset);
        // A part of a page (SQLite reading a chain's last page straight into the blob): from
        // the pages read ahead when they hold it.
        if (read_from_read_ahead(ahead, buffer, amount, (long)offset)) return SQLITE_OK;
    }
    return read_rest(self, buffer, amount, (long)offset, 0);
}

/// Forgets the pages read ahead, and the rows read straight from the file.
static void forget_read_ahead(sqlite3_file *file) {
    ((NoWaitFile *)file)->ahead.count = 0;
    nowait_rows_forget(&((NoWaitFile *)file)->rows);
}

static int nowait_close(sqlite3_file *file) {
    sqlite3_free(((NoWaitFile *)file)->ahead.bytes);
    nowait_rows_free(&((NoWaitFile *)file)->rows);
    nowait_unmap((NoWaitFile *)file);
    return REAL(file)->pMethods->xClose(REAL(file));
}
static int nowait_write(sqlite3_file *file, const void *buffer, int amount, sqlite3_int64 offset) {
    forget_read_ahead(file);
    return REAL(file)->pMethods->xWrite(REAL(file), buffer, amount, offset);
}
static int nowait_truncate(sqlite3_file *file, sqlite3_int64 size) {
    forget_read_ahead(file);
    return REAL(file)->pMethods->xTruncate(REAL(file), size);
}
static int nowait_sync(sqlite3_file *file, int flags) { return REAL(file)->pMethods->xSync(REAL(file), flags); }
static int nowait_file_size(sqlite3_file *file, sqlite3_int64 *size) {
    return REAL(file)->pMethods->xFileSize(REAL(file), size);
}
static int nowait_lock(sqlite3_file *file, int level) {
    int code = REAL(file)->pMethods->xLock(REAL(file), level);
    if (code == SQLITE_OK) ((NoWaitFile *)file)->lock = level;
    return code;
}
static int nowait_unlock(sqlite3_file *file, int level) {
    forget_read_ahead(file);  // the file may change once the lock is let go
    // SQLite only ever lowers it here; counted as let go even if the unix VFS fails to, so
    // reads straight from the file stop.
    ((NoWaitFile *)file)->lock = level;
    return REAL(file)->pMethods->xUnlock(REAL(file), level);
}
static int nowait_check_reserved_lock(sqlite3_file *file, int *result) {
    return REAL(file)->pMethods->xCheckReservedLock(REAL(file), result);
}
static int nowait_file_control(sqlite3_file *file, int op, void *argument) {
    if (op == CSQLITE_NOWAIT_FCNTL_BLOB) {
        ReadAhead *ahead = &((NoWaitFile *)file)->ahead;
        ahead->remaining = *(const long *)argument;
        ahead->count = 0;
        return SQLITE_OK;
    }
    // No file is mapped (a page fault would wait on the disk): the pages SQLite's mapped-page
    // path is given are lent from the read-ahead (`nowait_fetch`).
    if (op == SQLITE_FCNTL_MMAP_SIZE) {
        *(sqlite3_int64 *)argument = 0;
        return SQLITE_OK;
    }
    return REAL(file)->pMethods->xFileControl(REAL(file), op, argument);
}
static int nowait_sector_size(sqlite3_file *file) { return REAL(file)->pMethods->xSectorSize(REAL(file)); }
static int nowait_device_characteristics(sqlite3_file *file) {
    return REAL(file)->pMethods->xDeviceCharacteristics(REAL(file));
}
static int nowait_shm_map(sqlite3_file *file, int region, int size, int extend, void volatile **mapped) {
    (void)file; (void)region; (void)size; (void)extend;
    *mapped = 0;
    return SQLITE_IOERR_SHMMAP;  // a WAL index may need I/O: WAL databases are read by threads that may wait
}
static int nowait_shm_lock(sqlite3_file *file, int offset, int n, int flags) {
    return REAL(file)->pMethods->xShmLock(REAL(file), offset, n, flags);
}
static void nowait_shm_barrier(sqlite3_file *file) { REAL(file)->pMethods->xShmBarrier(REAL(file)); }
static int nowait_shm_unmap(sqlite3_file *file, int delete_flag) {
    return REAL(file)->pMethods->xShmUnmap(REAL(file), delete_flag);
}
/// SQLite's memory-mapped page path, on when the connection's `mmap_size` is above 0: pages of
/// a blob being read are lent from the pages read ahead (`fetch_blob_page`); any other page is
/// not mapped (a page fault would wait on the disk), and SQLite reads it (`nowait_read`).
static int nowait_fetch(sqlite3_file *file, sqlite3_int64 offset, int amount, void **pointer) {
    NoWaitFile *self = (NoWaitFile *)file;
    *pointer = 0;
    if (self->fd < 0) return SQLITE_OK;
    return fetch_blob_page(self, (long)offset, amount, pointer);
}
/// Takes back a page `nowait_fetch` lent (a null pointer, SQLite letting go of every mapping,
/// lends back none: it does so only when it holds none).
static int nowait_unfetch(sqlite3_file *file, sqlite3_int64 offset, void *pointer) {
    (void)offset;
    ReadAhead *ahead = &((NoWaitFile *)file)->ahead;
    char *page = pointer;
    if (page != 0 && ahead->bytes != 0 && page >= ahead->bytes && page < ahead->bytes + BUFFER_BYTES)
        ahead->lent--;
    return SQLITE_OK;
}

/// The unix VFS's descriptor of `real`, opened from `path`, or -1. The descriptor is the
/// fourth field of the unix VFS's file (after its methods, VFS and inode pointers), unchanged
/// since SQLite 3.7; it is used only when it is open on the very file SQLite opened (same
/// device and inode as `path`), so another layout means slow reads, never wrong ones.
static int descriptor_of(sqlite3_file *real, const char *path) {
    int fd = *(const int *)((const char *)real + 3 * sizeof(void *));
    struct stat opened, named;
    if (fd < 0 || fstat(fd, &opened) != 0 || stat(path, &named) != 0) return -1;
    if (opened.st_dev != named.st_dev || opened.st_ino != named.st_ino || !S_ISREG(opened.st_mode)) return -1;
    return fd;
}

static int nowait_open(sqlite3_vfs *vfs, const char *path, sqlite3_file *file, int flags, int *out_flags) {
    (void)vfs;
    NoWaitFile *self = (NoWaitFile *)file;
    self->real = (sqlite3_file *)&self[1];
    self->fd = -1;
    self->ahead = (ReadAhead){.remaining = -1};
    self->lock = SQLITE_LOCK_NONE;
    self->rows = (RowPages){.value_count = -1};
    self->map = 0;
    self->mapped = 0;
    self->mincore_tells = -1;
    self->identity = 0;
    self->residency_ticks = 0;
    int code = unix_vfs->xOpen(unix_vfs, path, self->real, flags, out_flags);
    if (self->real->pMethods == 0) {
        self->base.pMethods = 0;  // nothing to close
        return code;
    }
    self->base.pMethods = &nowait_methods;
    if (code == SQLITE_OK && path != 0) self->fd = descriptor_of(self->real, path);
    if (self->fd >= 0) {
        // Reads need not stamp the access time (each read checks whether to, under relatime);
        // allowed to the file's owner (or CAP_FOWNER), else it stays as it is.
        int status = fcntl(self->fd, F_GETFL);
        if (status >= 0) (void)fcntl(self->fd, F_SETFL, status | O_NOATIME);
    }
    return code;
}

/// SQLITE_ACCESS_EXISTS (a hot journal? a WAL file?) from the kernel's caches alone: SQLite's
/// test, a file there and, if regular, not empty. SQLite locks neither file, so closing the
/// descriptor drops no lock (closing one of the database's own would drop them all).
static int nowait_access(sqlite3_vfs *vfs, const char *path, int flags, int *result) {
    (void)vfs;
    if (flags == SQLITE_ACCESS_EXISTS) {
        int fd = clinux_open_cached(path);
        if (fd >= 0) {
            struct stat found;
            int there = fstat(fd, &found) == 0 && (!S_ISREG(found.st_mode) || found.st_size > 0);
            close(fd);  // a journal: SQLite holds no lock on it
            *result = there;
            return SQLITE_OK;
        }
        if (errno == ENOENT || errno == ENOTDIR) {
            *result = 0;
            return SQLITE_OK;
        }
        // EAGAIN: the path is not all in the kernel's caches; ENOSYS, EINVAL, EPERM (no
        // openat2 or RESOLVE_CACHED), EACCES: it cannot tell without a stat that may wait.
        return SQLITE_IOERR_ACCESS;
    }
    return unix_vfs->xAccess(unix_vfs, path, flags, result);
}

static int registered;

struct NoWaitFile *csqlite_nowait_file(struct sqlite3 *db) {
    sqlite3_file *file = 0;
    if (sqlite3_file_control(db, "main", SQLITE_FCNTL_FILE_POINTER, &file) != SQLITE_OK || file == 0) return 0;
    return file->pMethods == &nowait_methods ? (NoWaitFile *)file : 0;
}

static void register_once(void) {
    unix_vfs = sqlite3_vfs_find("unix");
    if (unix_vfs == 0) return;
    nowait_vfs = *unix_vfs;
    nowait_vfs.pNext = 0;
    nowait_vfs.zName = CSQLITE_NOWAIT_VFS;
    nowait_vfs.szOsFile = (int)sizeof(NoWaitFile) + unix_vfs->szOsFile;
    nowait_vfs.xOpen = nowait_open;
    nowait_vfs.xAccess = nowait_access;

    nowait_methods = (sqlite3_io_methods){
        .iVersion = 3,
        .xClose = nowait_close,
        .xRead = nowait_read,
        .xWrite = nowait_write,
        .xTruncate = nowait_truncate,
        .xSync = nowait_sync,
        .xFileSize = nowait_file_size,
        .xLock = nowait_lock,
        .xUnlock = nowait_unlock,
        .xCheckReservedLock = nowait_check_reserved_lock,
        .xFileControl = nowait_file_control,
        .xSectorSize = nowait_sector_size,
        .xDeviceCharacteristics = nowait_device_characteristics,
        .xShmMap = nowait_shm_map,
        .xShmLock = nowait_shm_lock,
        .xShmBarrier = nowait_shm_barrier,
        .xShmUnmap = nowait_shm_unmap,
        .xFetch = nowait_fetch,
        .xUnfetch = nowait_unfetch,
    };
    registered = sqlite3_vfs_register(&nowait_vfs, 0) == SQLITE_OK;
    if (registered) nowait_guard_install();
}

int csqlite_nowait_register(void) {
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, register_once);
    return registered;
}

#else

int csqlite_nowait_register(void) { return 0; }

long csqlite_nowait_reads(void) { return 0; }

long csqlite_nowait_pages_lent(void) { return 0; }

struct NoWaitFile *csqlite_nowait_file(struct sqlite3 *db) {
    (void)db;
    return 0;
}

#endif

void csqlite_nowait_blob(struct sqlite3 *db, long count) {
    (void)sqlite3_file_control(db, "main", CSQLITE_NOWAIT_FCNTL_BLOB, &count);
}
