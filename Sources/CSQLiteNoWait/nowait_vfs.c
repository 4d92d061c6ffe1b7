#define _GNU_SOURCE  // O_NOATIME
#include "CSQLiteNoWait.h"

#include <sqlite3.h>

#ifdef __linux__
#include "CLinux.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/// A file of this VFS: ours, followed by the "unix" VFS's own file, which does all but reads.
typedef struct NoWaitFile {
    sqlite3_file base;
    /// The descriptor reads use (the unix file's, found and checked at open); -1 when it could
    /// not be found: every read then "would wait".
    int fd;
    sqlite3_file *real;
} NoWaitFile;

static sqlite3_vfs *unix_vfs;
static sqlite3_vfs nowait_vfs;
static sqlite3_io_methods nowait_methods;

#define REAL(file) (((NoWaitFile *)(file))->real)

static int nowait_read(sqlite3_file *file, void *buffer, int amount, sqlite3_int64 offset) {
    NoWaitFile *self = (NoWaitFile *)file;
    if (self->fd < 0) return SQLITE_IOERR_READ;
    char *out = buffer;
    long done = 0;
    while (done < amount) {
        long n = clinux_pread_cached(self->fd, out + done, amount - done, (long)offset + done);
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

static int nowait_close(sqlite3_file *file) { return REAL(file)->pMethods->xClose(REAL(file)); }
static int nowait_write(sqlite3_file *file, const void *buffer, int amount, sqlite3_int64 offset) {
    return REAL(file)->pMethods->xWrite(REAL(file), buffer, amount, offset);
}
static int nowait_truncate(sqlite3_file *file, sqlite3_int64 size) {
    return REAL(file)->pMethods->xTruncate(REAL(file), size);
}
static int nowait_sync(sqlite3_file *file, int flags) { return REAL(file)->pMethods->xSync(REAL(file), flags); }
static int nowait_file_size(sqlite3_file *file, sqlite3_int64 *size) {
    return REAL(file)->pMethods->xFileSize(REAL(file), size);
}
static int nowait_lock(sqlite3_file *file, int level) { return REAL(file)->pMethods->xLock(REAL(file), level); }
static int nowait_unlock(sqlite3_file *file, int level) { return REAL(file)->pMethods->xUnlock(REAL(file), level); }
static int nowait_check_reserved_lock(sqlite3_file *file, int *result) {
    return REAL(file)->pMethods->xCheckReservedLock(REAL(file), result);
}
static int nowait_file_control(sqlite3_file *file, int op, void *argument) {
    // No memory-mapped reads: a page fault would wait on the disk.
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
static int nowait_fetch(sqlite3_file *file, sqlite3_int64 offset, int amount, void **pointer) {
    (void)file; (void)offset; (void)amount;
    *pointer = 0;  // never a mapped page: SQLite reads instead
    return SQLITE_OK;
}
static int nowait_unfetch(sqlite3_file *file, sqlite3_int64 offset, void *pointer) {
    (void)file; (void)offset; (void)pointer;
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
}

int csqlite_nowait_register(void) {
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, register_once);
    return registered;
}

#else

int csqlite_nowait_register(void) { return 0; }

#endif
