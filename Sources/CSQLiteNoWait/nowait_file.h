#ifndef NOWAIT_FILE_H
#define NOWAIT_FILE_H

// The VFS's file, shared by the VFS (nowait_vfs.c) and the reader of rows straight from the
// file (nowait_row.c); both are used on Linux only.

#include <sqlite3.h>
#include <stdint.h>

/// SQLite's smallest and largest page sizes (both powers of two).
#define MIN_PAGE_SIZE 512
#define MAX_PAGE_SIZE 65536
/// The head of an overflow page: the number of the next page in the chain (file format, 1.6
/// "Cell Payload Overflow Pages"); the rest of the page (less any reserved bytes) is payload.
#define OVERFLOW_LINK_BYTES 4

/// The pages `csqlite_nowait_find_value` reads, and where the value it found lies. Valid while
/// the file's lock is held: dropped (`nowait_rows_forget`) when it is let go.
typedef struct RowPages {
    /// The file's page size and the bytes of a page that hold data (less those reserved at its
    /// end), from its header; 0 until read under this lock.
    int page_size;
    int usable;
    /// The page size the buffers below are for.
    int allocated;
    /// A page: the leaf of the row found last (`page_size` bytes; freed with the file).
    unsigned char *leaf;
    /// Interior pages kept while the lock is held (a B-tree's upper pages, read once instead of
    /// once a row): slot `number % slots`, its page number in `slot_pages` (0: empty).
    int slots;
    unsigned *slot_pages;
    unsigned char *slot_bytes;
    /// Bytes read and thrown away (a page's reserved end between two pages of a chain).
    unsigned char *scratch;
    /// The value found: its place in the row's payload, its length; the part of the payload in
    /// the leaf (from `local_at` in `leaf`) and its first overflow page. value_count is -1 when
    /// nothing is found.
    long value_at;
    long value_count;
    long local_count;
    int local_at;
    unsigned first_overflow;
    /// Pages in the value's row's overflow chain (0: none).
    unsigned overflow_pages;
    /// A run of overflow pages the page cache was found to hold with the leaf, for the value
    /// found (`nowait_mapped_with_run`): its first page and length; 0 pages when none.
    unsigned resident_run_first;
    long resident_run_pages;
    /// The page the value's cell is in (`leaf`, or a page kept), valid until the next page read.
    const unsigned char *cell_page;
    /// That page's number (0 before a value is found).
    unsigned cell_page_number;
} RowPages;

/// While SQLite reads a blob (`CSQLITE_NOWAIT_FCNTL_BLOB`), the pages after each one it asks
/// for, read with it.
///
/// SQLite reads a blob's overflow pages one at a time, each into its page cache, one system
/// call a page; a chain written in one go lies in adjacent pages of the file. So while a blob
/// is read, the page asked for is read into this buffer with the pages after it (as many as the
/// blob can still need, up to `CSQLITE_NOWAIT_READ_AHEAD_BYTES`), in one preadv2, and the
/// pages within it are lent to SQLite where they lie (`nowait_fetch`: SQLite's memory-mapped
/// page path, given pages of this buffer instead of a mapped file), so neither a system call
/// nor a copy into SQLite's page cache is made for them. A chain that jumps is read again from
/// where it lands. Forgotten when the blob's read ends or the file's lock is let go; never
/// read over while SQLite holds one of its pages.
typedef struct ReadAhead {
    /// Bytes of the blob its pages may still hold (counted down as pages are read); -1: no
    /// blob is being read.
    long remaining;
    /// The pages read ahead: where they start in the file, how many bytes were read.
    long offset;
    long count;
    /// BUFFER_BYTES, allocated on first use; freed with the file.
    char *bytes;
    /// Pages of `bytes` lent to SQLite (`nowait_fetch`) and not yet given back (`nowait_unfetch`).
    int lent;
} ReadAhead;

/// A file of this VFS: ours, followed by the "unix" VFS's own file, which does all but reads.
typedef struct NoWaitFile {
    sqlite3_file base;
    /// The descriptor reads use (the unix file's, found and checked at open); -1 when it could
    /// not be found: every read then "would wait".
    int fd;
    ReadAhead ahead;
    /// SQLite's lock on the file (SHARED_LOCK and up: the file does not change meanwhile).
    int lock;
    /// What `csqlite_nowait_find_value` read, for `csqlite_nowait_read_value`.
    RowPages rows;
    /// The file mapped read-only (`csqlite_nowait_lend_value`, or a row looked for where it was
    /// found: `nowait_mapped_with_run`), `mapped` bytes of it; null until then. Unmapped with
    /// the file.
    const unsigned char *map;
    long mapped;
    /// Whether mincore tells this process which of the file's pages are in the page cache
    /// (`nowait_map.c`): -1 until the file is first to be mapped, then 1 or 0 (nothing is lent).
    int mincore_tells;
    /// Which file is mapped (`nowait_file_identity`), for `nowait_residency_key`; set when it is
    /// mapped.
    uint64_t identity;
    /// Ticks of 1/16 s that a span of pages mincore found in the page cache is taken to stay
    /// there (`csqlite_nowait_trust_residency`); 0: asked each time.
    int residency_ticks;
    sqlite3_file *real;
} NoWaitFile;

/// Reads (preadv2 calls) this thread made through the VFS and the row reader, for tests.
extern _Thread_local long nowait_reads_made;

/// Frees what the row reader holds (with the file), and forgets what it read (when the lock goes).
void nowait_rows_free(RowPages *rows);
void nowait_rows_forget(RowPages *rows);

/// Unmaps the file's mapping, if any (when the file closes).
void nowait_unmap(NoWaitFile *file);

/// Installs the handler that turns a fault in a guarded read of the mapping into an error
/// (nowait_map.c); once, when the VFS is registered.
void nowait_guard_install(void);

/// Where a fault in a read of the mapping on this thread jumps to (set after a `sigsetjmp(jump,
/// 0)` that returned 0; null when the guarded reads are done). A fault clears it.
void nowait_guard(void *jump);

/// Counts a fault caught (for tests).
void nowait_fault_caught(void);

/// The `count` bytes at `offset` of the file where the mapping holds them, when it does and the
/// page cache holds them all (mincore, or the memo of what it found lately: nowait_residency.c);
/// null otherwise. Read them only under a guard.
const unsigned char *nowait_mapped(NoWaitFile *file, long offset, long count);

/// `nowait_mapped` for page `leaf`, asking the page cache with one mincore for it and for the
/// `pages` pages from `first` on (an overflow run) when they lie close together in the file;
/// when it holds the whole run, the run is noted (`RowPages.resident_run_first`) so the value
/// lent from it is not asked for again. Null when they do not lie close, are not mapped, or the
/// leaf is not in the page cache: `nowait_mapped` for the leaf alone then says. Not asked when
/// the memo of what mincore found lately has the leaf and the run whole.
const unsigned char *nowait_mapped_with_run(NoWaitFile *file, unsigned leaf, unsigned first, long pages);

/// A mapped file's identity for the memo of what mincore found (`NoWaitFile.identity`): its
/// device, inode and inode change time, mixed.
uint64_t nowait_file_identity(uint64_t device, uint64_t inode, uint64_t changed, uint64_t changed_nanoseconds);

/// What a span noted in the memo of what mincore found is: bytes from an offset, or a leaf
/// page and an overflow run.
#define RESIDENT_BYTES 1
#define RESIDENT_LEAF_AND_RUN 2

/// The key in the process's memo of what mincore found (nowait_residency.c) of a span of
/// `file`'s mapped file, of `kind`: RESIDENT_BYTES, `second` bytes from offset `first`;
/// RESIDENT_LEAF_AND_RUN, leaf page `first` and the run `second` (its first page shifted left
/// 9 bits, or'ed with its length, at most 256 pages).
uint64_t nowait_residency_key(const NoWaitFile *file, int kind, uint64_t first, uint64_t second);

/// Whether mincore found the span of `key` all in the page cache less than `file`'s residency
/// trust ago (never when it has none).
int nowait_recently_resident(const NoWaitFile *file, uint64_t key);

/// Notes that mincore found the span of `key` all in the page cache now (when `file` trusts
/// that for a while).
void nowait_note_resident(const NoWaitFile *file, uint64_t key);

#endif
