#ifndef CSQLITE_NOWAIT_H
#define CSQLITE_NOWAIT_H

struct iovec;

/// A SQLite VFS for readers on an event loop: the default "unix" VFS, except that it never
/// waits on a disk. A read the page cache cannot give whole (preadv2 with RWF_NOWAIT answers
/// EAGAIN) fails with SQLITE_IOERR_READ, a check for a journal whose path is not in the
/// kernel's caches (openat2 with RESOLVE_CACHED) with SQLITE_IOERR_ACCESS, and a WAL index is
/// never mapped (SQLITE_IOERR_SHMMAP): the statement fails, and the caller hands the read to a
/// thread that may wait. Locks are SQLite's usual fcntl(F_SETLK) locks, which do not wait for
/// another process's lock (a connection opened with it should have a busy timeout of 0) and,
/// like fstat, answer from memory on a local filesystem: use it only there (on NFS or FUSE
/// they ask the server). No file is memory-mapped (a page fault would wait): with `PRAGMA
/// mmap_size` above 0, SQLite's mapped-page path is lent pages the VFS has read ahead of a
/// blob instead. Linux only: elsewhere it is not registered.

/// The VFS's name, for sqlite3_open_v2.
#define CSQLITE_NOWAIT_VFS "tilelayer-nowait"

/// Registers the VFS (once; not as the default). 1 when it can be used here, 0 when not (not
/// Linux, or no "unix" VFS to wrap).
int csqlite_nowait_register(void);

struct sqlite3;

/// The file-control opcode (sqlite3_file_control on "main"; argument: a long) that says SQLite
/// is about to read a blob of that many bytes, or (-1) is done: meanwhile each page read also
/// reads the adjacent pages the blob can still need, in the same preadv2 (see ReadAhead in
/// nowait_vfs.c). Another VFS answers SQLITE_NOTFOUND.
#define CSQLITE_NOWAIT_FCNTL_BLOB 0x746c01

/// The most bytes read ahead of a blob's page, in the same read as that page.
#define CSQLITE_NOWAIT_READ_AHEAD_BYTES (128 * 1024)

/// Says `db` is about to read a blob of `count` bytes, or (-1) is done: CSQLITE_NOWAIT_FCNTL_BLOB.
void csqlite_nowait_blob(struct sqlite3 *db, long count);

/// `csqlite_nowait_find_value` and `csqlite_nowait_read_value` answers besides a length: a
/// page is not in the page cache (ask a thread that may wait), or this reader does not read it
/// (ask SQLite, which reads it or says what is wrong).
#define CSQLITE_NOWAIT_WOULD_WAIT (-2)
#define CSQLITE_NOWAIT_ASK_SQLITE (-1)

struct NoWaitFile;

/// The VFS's file of `db`'s main database, or null when `db` was not opened with this VFS. SQLite
/// opens it with the connection and keeps it until the connection closes.
struct NoWaitFile *csqlite_nowait_file(struct sqlite3 *db);

/// Where a row's value was found (`csqlite_nowait_found_place`): the table leaf page its cell is
/// in, and the run of pages its overflow chain starts with (the first page, and how many pages
/// the chain has: its run if they are adjacent). 0: not known, or no overflow.
typedef struct CSQLiteNoWaitPlace {
    unsigned leaf;
    unsigned overflow;
    unsigned overflow_pages;
} CSQLiteNoWaitPlace;

/// Finds column `column` (a BLOB or TEXT) of row `row` of the rowid table whose B-tree starts at
/// page `root`, reading the file's pages straight (preadv2 with RWF_NOWAIT), not through SQLite:
/// its length, to read with `csqlite_nowait_read_value` next. Only while the connection's read
/// transaction holds the file's lock (then the file does not change); a page that does not
/// parse, a row not there, a value of another type, or no lock: ASK_SQLITE.
///
/// `near.leaf`, when not 0, is the table leaf page the row was found in before
/// (`csqlite_nowait_found_place`) while the file has not changed since: the row is looked for
/// there first, without walking down from the root; when that page is no table leaf holding the
/// row, the walk from the root decides. (A page of a changed file may hold another table's
/// rows: the caller may trust a value found this way only if the file turns out unchanged.)
/// With `near.overflow_pages` too, the file is mapped (if it is not) and one mincore asks the
/// page cache for the leaf and that run at once when they lie close together (none when they
/// were found there within the file's residency trust, `csqlite_nowait_trust_residency`), and
/// `csqlite_nowait_lend_value` asks no more for the run if it is the value's.
long csqlite_nowait_find_value(struct NoWaitFile *file, unsigned root, CSQLiteNoWaitPlace near, long long row, int column);

/// Where the value `csqlite_nowait_find_value` found last lies (all 0 before any).
CSQLiteNoWaitPlace csqlite_nowait_found_place(struct NoWaitFile *file);

/// Reads the value `csqlite_nowait_find_value` found (its length, no more) into `out`, a chain of
/// adjacent overflow pages in one preadv2 straight into it: 0, WOULD_WAIT or ASK_SQLITE.
int csqlite_nowait_read_value(struct NoWaitFile *file, void *out);

/// Lends the value `csqlite_nowait_find_value` found where it lies, in the file mapped
/// read-only (the file is mapped on first use, and again when it grew): its bytes in the row's
/// cell, then in each overflow page, as up to `capacity` pieces in `pieces`, each overflow
/// page checked to be in the page cache (mincore) before any of it is touched, or found there
/// within the file's residency trust (`csqlite_nowait_trust_residency`), so nothing waits on a
/// disk unless the page cache dropped it since. The pieces stay valid while the file's lock is held and no other value is
/// found on this file: whoever sends them (writev) or copies them (`csqlite_nowait_copy_lent`)
/// must be done before either. The number of pieces; WOULD_WAIT when a page is not in the page
/// cache; ASK_SQLITE when there is no lock, no value found, more pieces than `capacity`, a chain
/// that ends early or runs past the file, no mapping, or a file mincore does not tell this
/// process about (one it neither owns nor may write: the kernel then says every page is there).
int csqlite_nowait_lend_value(struct NoWaitFile *file, struct iovec *pieces, int capacity);

/// 1 when every one of `count` pieces `csqlite_nowait_lend_value` lent lies in the file's mapping,
/// 0 when one does not: a value with no overflow chain, or lent before the file was mapped, has
/// its cell's piece in the row reader's own buffer, which the next page it reads writes over.
/// Only pieces in the mapping are the file's pages, fit to be lent on (an immutable file's).
int csqlite_nowait_lent_in_mapping(struct NoWaitFile *file, const struct iovec *pieces, int count);

/// How long, in seconds, pages of `file` mincore found in the page cache are taken to stay
/// there: `csqlite_nowait_find_value` and `csqlite_nowait_lend_value` read and lend from them
/// again without asking (a memo shared by every reader of the same file in the process). Kept
/// in ticks of 1/16 s, rounded up, at most 2^20 (about 18 hours). 0, the default: asked before
/// every read of the mapping.
void csqlite_nowait_trust_residency(struct NoWaitFile *file, double seconds);

/// For tests: how many spans of pages the calling thread took from that memo, not asking.
long csqlite_nowait_residency_trusted(void);

/// Unmaps what `csqlite_nowait_lend_value` mapped (the next lend maps the file again), so its
/// pages are not held mapped by an idle reader. Only while no lent value is in use.
void csqlite_nowait_unmap(struct NoWaitFile *file);

/// Copies `count` bytes of `pieces` (of which there are `piece_count`), from byte `skip` of
/// them on, into `out`: 0; -1 when the mapping could not give them all (a file cut short under
/// it by something other than SQLite: the fault is caught, SIGBUS turned into this answer).
int csqlite_nowait_copy_lent(const struct iovec *pieces, int piece_count, long skip, void *out, long count);

/// For tests: how many values the calling thread lent with `csqlite_nowait_lend_value`.
long csqlite_nowait_values_lent(void);

/// For tests: how many faults in guarded reads of a mapping the calling thread turned into errors.
long csqlite_nowait_faults_caught(void);

/// For tests: how many runs of overflow pages the calling thread's lends took as asked of the
/// page cache with their leaf (`csqlite_nowait_find_value`'s `near`: by one mincore, or from the
/// memo of what it found lately), not on their own.
long csqlite_nowait_runs_asked_with_leaf(void);

/// For tests: how many values the calling thread read with `csqlite_nowait_read_value`.
long csqlite_nowait_values_read(void);

/// For tests: how many reads (preadv2) the calling thread has made through the VFS (and the
/// value reader).
long csqlite_nowait_reads(void);

/// For tests: how many pages read ahead the calling thread's connections were lent by the VFS
/// (SQLite's memory-mapped page path, see ReadAhead in nowait_vfs.c) instead of copying them.
long csqlite_nowait_pages_lent(void);

#endif
