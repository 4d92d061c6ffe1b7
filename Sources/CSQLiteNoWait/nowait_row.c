#define _GNU_SOURCE
#include "CSQLiteNoWait.h"

#ifdef __linux__
#include "CLinux.h"
#include "nowait_file.h"

#include <errno.h>
#include <setjmp.h>
#include <string.h>
#include <sys/uio.h>

// A row's value read straight from the database file, for readers that read many rows by row
// id (MBTiles tiles): SQLite's own path (sqlite3_blob_reopen, then sqlite3_blob_read) runs a
// program to find the row, fetches each overflow page through its pager, and copies the value
// out of the pages; here the table's B-tree is walked by hand (SQLite file format, section 1.6
// "B-tree Pages", "Record Format"), and a chain of adjacent overflow pages is read in one
// preadv2 straight into the value's bytes, each page's 4-byte link into a buffer of its own.
//
// Only while SQLite holds the file's lock (SHARED or more, in a read transaction): no writer
// changes the file meanwhile, as SQLite itself relies on. Anything this reader does not expect
// (a page that does not parse, a row not there, a value that is not a BLOB or TEXT) is left to
// SQLite, which reads it, or says what is wrong with the file.

static _Thread_local long values_read;

long csqlite_nowait_values_read(void) { return values_read; }

/// B-tree page types.
#define INTERIOR_TABLE 0x05
#define LEAF_TABLE 0x0d
/// Bytes of interior pages kept while a lock is held, at most.
#define INTERIOR_BYTES (512 * 1024)
/// Pages of a chain read in one preadv2, at most: four buffers each (link, bytes before the
/// value, the value's, reserved bytes), within IOV_MAX (1024).
#define RUN_PAGES 256
/// A B-tree deeper than this is not a sound one (SQLite's own limit is 20).
#define MAX_DEPTH 20

static unsigned be16(const unsigned char *p) { return (unsigned)p[0] << 8 | p[1]; }

static unsigned be32(const unsigned char *p) {
    return (unsigned)p[0] << 24 | (unsigned)p[1] << 16 | (unsigned)p[2] << 8 | p[3];
}

/// The varint at `*at` in `page`, which must end before `end`: 1 and `*at` moved past it, or 0.
static int varint(const unsigned char *page, int *at, int end, unsigned long long *value) {
    unsigned long long v = 0;
    for (int i = 0; i < 9; i++) {
        if (*at >= end) return 0;
        unsigned char byte = page[(*at)++];
        if (i == 8) {
            *value = v << 8 | byte;
            return 1;
        }
        v = v << 7 | (byte & 0x7f);
        if ((byte & 0x80) == 0) {
            *value = v;
            return 1;
        }
    }
    return 0;
}

/// How much of a table leaf cell's `payload` bytes lie in the cell itself (file format 1.6).
static long local_size(long payload, int usable) {
    long most = usable - 35;
    if (payload <= most) return payload;
    long least = (long)(usable - 12) * 32 / 255 - 23;
    long spilled = least + (payload - least) % (usable - 4);
    return spilled <= most ? spilled : least;
}

/// The length of a record value of serial type `type`, -1 for the reserved types.
static long value_size(unsigned long long type) {
    static const signed char sizes[12] = {0, 1, 2, 3, 4, 6, 8, 8, 0, 0, -1, -1};
    if (type < 12) return sizes[type];
    return (long)((type - 12) / 2);
}

void nowait_rows_free(RowPages *rows) {
    sqlite3_free(rows->leaf);
    sqlite3_free(rows->slot_pages);
    sqlite3_free(rows->slot_bytes);
    sqlite3_free(rows->scratch);
    *rows = (RowPages){.value_count = -1};
}

void nowait_rows_forget(RowPages *rows) {
    rows->page_size = 0;
    rows->value_count = -1;
    if (rows->slot_pages != 0) memset(rows->slot_pages, 0, (size_t)rows->slots * sizeof(unsigned));
}

/// The page size and usable bytes a page from the file's header, once under each lock, with the
/// buffers for pages of that size.
///
/// A read here that does not give every byte asked for (not in the page cache, a filesystem
/// that cannot tell, or the file's end) is WOULD_WAIT: a thread that may wait then asks SQLite,
/// which says what is wrong if anything is.
static long read_header(NoWaitFile *self) {
    RowPages *rows = &self->rows;
    if (rows->page_size != 0) return 0;
    unsigned char header[100];
    nowait_reads_made++;
    if (clinux_pread_cached(self->fd, header, sizeof header, 0) != (long)sizeof header) return CSQLITE_NOWAIT_WOULD_WAIT;
    int size = (int)be16(header + 16);
    if (size == 1) size = MAX_PAGE_SIZE;
    int usable = size - header[20];
    // Rollback-journal files only (read and write versions 1): a WAL file's newest pages may
    // be in its WAL, not here.
    if (size < MIN_PAGE_SIZE || size > MAX_PAGE_SIZE || (size & (size - 1)) != 0 || usable < 480
        || header[18] != 1 || header[19] != 1)
        return CSQLITE_NOWAIT_ASK_SQLITE;
    if (rows->leaf == 0 || rows->allocated != size) {
        nowait_rows_free(rows);
        int slots = INTERIOR_BYTES / size < 4 ? 4 : INTERIOR_BYTES / size;
        rows->leaf = sqlite3_malloc(size);
        rows->scratch = sqlite3_malloc(size);
        rows->slot_pages = sqlite3_malloc(slots * (int)sizeof(unsigned));
        rows->slot_bytes = sqlite3_malloc64((sqlite3_uint64)slots * (sqlite3_uint64)size);
        if (rows->leaf == 0 || rows->scratch == 0 || rows->slot_pages == 0 || rows->slot_bytes == 0) {
            nowait_rows_free(rows);
            return CSQLITE_NOWAIT_ASK_SQLITE;
        }
        memset(rows->slot_pages, 0, (size_t)slots * sizeof(unsigned));
        rows->slots = slots;
        rows->allocated = size;
    }
    rows->page_size = size;
    rows->usable = usable;
    return 0;
}

/// Page `number`: an interior page kept under this lock; else where the file's mapping holds it
/// (once the file is mapped: nowait_map.c), or read into `rows->leaf`; kept when it is an interior
/// page. Null when it cannot be read: `*code` says why. Only under a guard (`find`'s).
static const unsigned char *page(NoWaitFile *self, unsigned number, long *code) {
    RowPages *rows = &self->rows;
    unsigned slot = number % (unsigned)rows->slots;
    unsigned char *kept = rows->slot_bytes + (size_t)slot * (size_t)rows->page_size;
    if (rows->slot_pages[slot] == number) return kept;
    long offset = (long)(number - 1) * rows->page_size;
    const unsigned char *bytes = nowait_mapped(self, offset, rows->page_size);
    if (bytes == 0) {
        nowait_reads_made++;
        if (clinux_pread_cached(self->fd, rows->leaf, rows->page_size, offset) != rows->page_size) {
            *code = CSQLITE_NOWAIT_WOULD_WAIT;
            return 0;
        }
        bytes = rows->leaf;
    }
    if (bytes[number == 1 ? 100 : 0] != INTERIOR_TABLE) return bytes;
    memcpy(kept, bytes, (size_t)rows->page_size);
    rows->slot_pages[slot] = number;
    return kept;
}

/// Where cell `index` of `page` starts, given its cell pointers at `pointers` and `cells` of
/// them; 0 when it points outside the page's cell area.
static int cell(const unsigned char *page, int pointers, unsigned cells, unsigned index, int usable) {
    int at = (int)be16(page + pointers + 2 * index);
    return at >= pointers + 2 * (int)cells && at < usable ? at : 0;
}

/// The child of interior page `page` (header at `head`) whose keys take in `row`: the first
/// cell's with a key at least `row`, else the right-most child; 0 when the page does not parse.
static unsigned child(const unsigned char *page, int head, long long row, int usable) {
    int pointers = head + 12;
    unsigned cells = be16(page + head + 3);
    if (pointers + 2 * (int)cells > usable) return 0;
    unsigned low = 0, high = cells;
    while (low < high) {
        unsigned middle = (low + high) / 2;
        int at = cell(page, pointers, cells, middle, usable);
        int key_at = at + 4;
        unsigned long long key;
        if (at == 0 || !varint(page, &key_at, usable, &key)) return 0;
        if ((long long)key < row) low = middle + 1; else high = middle;
    }
    if (low == cells) return be32(page + head + 8);
    int at = cell(page, pointers, cells, low, usable);
    return at != 0 && at + 4 <= usable ? be32(page + at) : 0;
}

/// Finds `row` in leaf page `page` (header at `head`) and where its value `column` lies
/// (`rows->value_*`): the value's length, or ASK_SQLITE.
static long find_in_leaf(RowPages *rows, const unsigned char *page, int head, long long row, int column) {
    int usable = rows->usable;
    int pointers = head + 8;
    unsigned cells = be16(page + head + 3);
    if (pointers + 2 * (int)cells > usable) return CSQLITE_NOWAIT_ASK_SQLITE;
    unsigned low = 0, high = cells;
    while (low < high) {
        unsigned middle = (low + high) / 2;
        int at = cell(page, pointers, cells, middle, usable);
        unsigned long long payload, key;
        if (at == 0 || !varint(page, &at, usable, &payload) || !varint(page, &at, usable, &key))
            return CSQLITE_NOWAIT_ASK_SQLITE;
        if ((long long)key < row) {
            low = middle + 1;
        } else if ((long long)key > row) {
            high = middle;
        } else {
            if (payload > 0x7fffffff) return CSQLITE_NOWAIT_ASK_SQLITE;  // past SQLite's own limit
            long local = local_size((long)payload, usable);
            // The cell's own part of the payload, then the first overflow page's number.
            if (at + local + ((long)payload > local ? 4 : 0) > usable) return CSQLITE_NOWAIT_ASK_SQLITE;
            // The record's header, whole in the cell: its length, then a serial type a column.
            int header_end, types = at;
            unsigned long long header;
            if (!varint(page, &types, at + (int)local, &header) || header > (unsigned long long)local)
                return CSQLITE_NOWAIT_ASK_SQLITE;
            header_end = at + (int)header;
            long value_at = (long)header;
            for (int index = 0;; index++) {
                unsigned long long type;
                if (types >= header_end || !varint(page, &types, header_end, &type)) return CSQLITE_NOWAIT_ASK_SQLITE;
                long size = value_size(type);
                if (size < 0) return CSQLITE_NOWAIT_ASK_SQLITE;
                if (index == column) {
                    // A BLOB or TEXT (what SQLite's blob handle reads), within the payload.
                    if (type < 12 || value_at + size > (long)payload) return CSQLITE_NOWAIT_ASK_SQLITE;
                    rows->value_at = value_at;
                    rows->value_count = size;
                    rows->local_count = local;
                    rows->local_at = at;
                    rows->first_overflow = (long)payload > local ? be32(page + at + local) : 0;
                    long data = usable - OVERFLOW_LINK_BYTES;  // 0 pages when it all lies in the cell
                    rows->overflow_pages = (unsigned)(((long)payload - local + data - 1) / data);
                    rows->cell_page = page;
                    return size;
                }
                value_at += size;
            }
        }
    }
    return CSQLITE_NOWAIT_ASK_SQLITE;  // no such row
}

/// `row` in leaf page `number`, if that page is a table leaf holding it: as `find_in_leaf`.
static long find_in_page(NoWaitFile *self, const unsigned char *found, unsigned number, long long row, int column) {
    int head = number == 1 ? 100 : 0;
    if (found[head] != LEAF_TABLE) return CSQLITE_NOWAIT_ASK_SQLITE;
    long size = find_in_leaf(&self->rows, found, head, row, column);
    if (size >= 0) self->rows.cell_page_number = number;
    return size;
}

/// `csqlite_nowait_find_value`, its page reads from the mapping unguarded.
static long find(NoWaitFile *self, unsigned root, CSQLiteNoWaitPlace near, long long row, int column) {
    RowPages *rows = &self->rows;
    long code = 0;
    unsigned leaf = near.leaf;
    if (leaf != 0) {
        // The leaf the row was in (asked for with the value's overflow run, when known); the
        // walk from the root when it is not there now, or that page cannot be read (past the
        // file's end, not in the page cache: the walk tells).
        const unsigned char *found = near.overflow_pages > 0
            ? nowait_mapped_with_run(self, leaf, near.overflow, near.overflow_pages) : 0;
        if (found == 0) found = page(self, leaf, &code);
        long size = found != 0 ? find_in_page(self, found, leaf, row, column) : CSQLITE_NOWAIT_ASK_SQLITE;
        if (size >= 0) return size;
    }
    unsigned number = root;
    for (int depth = 0; depth < MAX_DEPTH && number != 0; depth++) {
        const unsigned char *found = page(self, number, &code);
        if (found == 0) return code;
        int head = number == 1 ? 100 : 0;
        if (found[head] == LEAF_TABLE) return find_in_page(self, found, number, row, column);
        if (found[head] != INTERIOR_TABLE) return CSQLITE_NOWAIT_ASK_SQLITE;
        number = child(found, head, row, rows->usable);
    }
    return CSQLITE_NOWAIT_ASK_SQLITE;
}

CSQLiteNoWaitPlace csqlite_nowait_found_place(NoWaitFile *self) {
    if (self == 0 || self->rows.cell_page_number == 0) return (CSQLiteNoWaitPlace){0, 0, 0};
    const RowPages *rows = &self->rows;
    return (CSQLiteNoWaitPlace){rows->cell_page_number, rows->first_overflow, rows->overflow_pages};
}

long csqlite_nowait_find_value(NoWaitFile *self, unsigned root, CSQLiteNoWaitPlace near, long long row, int column) {
    if (self == 0 || self->fd < 0 || self->lock < SQLITE_LOCK_SHARED || root == 0 || column < 0)
        return CSQLITE_NOWAIT_ASK_SQLITE;
    self->rows.value_count = -1;
    self->rows.cell_page_number = 0;
    self->rows.resident_run_pages = 0;
    long code = read_header(self);
    if (code != 0) return code;
    // Pages from the mapping are read in place: a file cut short under it faults, and the
    // fault lands here (nowait_map.c): the value is left to SQLite.
    sigjmp_buf jump;
    if (sigsetjmp(jump, 0) != 0) {
        nowait_fault_caught();
        self->rows.value_count = -1;
        return CSQLITE_NOWAIT_ASK_SQLITE;
    }
    nowait_guard(&jump);
    long found = find(self, root, near, row, column);
    nowait_guard(0);
    return found;
}

int csqlite_nowait_read_value(NoWaitFile *self, void *out) {
    if (self == 0 || self->lock < SQLITE_LOCK_SHARED || self->rows.value_count < 0) return CSQLITE_NOWAIT_ASK_SQLITE;
    RowPages *rows = &self->rows;
    unsigned char *bytes = out;
    long start = rows->value_at, end = rows->value_at + rows->value_count;  // in the payload
    long local = rows->local_count;
    long done = 0;  // bytes of the value in `out`
    if (start < local && start < end) {
        done = (end < local ? end : local) - start;
        // The cell's page may be the mapping's: copied under a guard.
        struct iovec cell = {(void *)(rows->cell_page + rows->local_at + start), (size_t)done};
        if (csqlite_nowait_copy_lent(&cell, 1, 0, bytes, done) != 0) return CSQLITE_NOWAIT_ASK_SQLITE;
    }
    // The chain: each page a link, `data` bytes of the payload, and the bytes reserved.
    long data = rows->usable - OVERFLOW_LINK_BYTES;
    long reserved = rows->page_size - rows->usable;
    unsigned number = rows->first_overflow;
    long at = local;  // where page `number`'s bytes start in the payload
    while (start + done < end) {
        if (number == 0) return CSQLITE_NOWAIT_ASK_SQLITE;  // the chain ends early
        // A run of pages from `number` on, as if the chain went on through adjacent pages.
        long wanted = start + done;
        long pages = (end - at + data - 1) / data;
        if (pages > RUN_PAGES) pages = RUN_PAGES;
        unsigned char links[RUN_PAGES][OVERFLOW_LINK_BYTES];
        struct iovec buffers[4 * RUN_PAGES];
        int count = 0;
        long total = 0;
        for (long index = 0; index < pages; index++) {
            long page_at = at + index * data;
            long skip = wanted > page_at ? wanted - page_at : 0;  // bytes before the value
            if (skip > data) skip = data;
            long take = end - (page_at + skip);
            if (take > data - skip) take = data - skip;
            if (take < 0) take = 0;
            buffers[count++] = (struct iovec){links[index], OVERFLOW_LINK_BYTES};
            if (skip > 0) buffers[count++] = (struct iovec){rows->scratch, (size_t)skip};
            if (take > 0) buffers[count++] = (struct iovec){bytes + (page_at + skip - start), (size_t)take};
            total += OVERFLOW_LINK_BYTES + skip + take;
            if (index < pages - 1 && reserved > 0) {
                buffers[count++] = (struct iovec){rows->scratch, (size_t)reserved};
                total += reserved;
            }
        }
        nowait_reads_made++;
        if (clinux_preadv_cached(self->fd, buffers, count, (long)(number - 1) * rows->page_size) != total)
            return CSQLITE_NOWAIT_WOULD_WAIT;
        // The pages read are the chain's as far as it runs through adjacent pages; the bytes
        // after a page whose link goes elsewhere are another page's, and are read again there.
        long kept = 0;
        while (kept < pages - 1 && be32(links[kept]) == number + (unsigned)kept + 1) kept++;
        at += (kept + 1) * data;
        long through = (at < end ? at : end) - start;
        if (through > done) done = through;
        number = be32(links[kept]);
    }
    rows->value_count = -1;
    values_read++;
    return 0;
}

#else

long csqlite_nowait_find_value(struct NoWaitFile *file, unsigned root, CSQLiteNoWaitPlace near, long long row, int column) {
    (void)file; (void)root; (void)near; (void)row; (void)column;
    return CSQLITE_NOWAIT_ASK_SQLITE;
}

CSQLiteNoWaitPlace csqlite_nowait_found_place(struct NoWaitFile *file) {
    (void)file;
    return (CSQLiteNoWaitPlace){0, 0, 0};
}

int csqlite_nowait_read_value(struct NoWaitFile *file, void *out) {
    (void)file; (void)out;
    return CSQLITE_NOWAIT_ASK_SQLITE;
}

long csqlite_nowait_values_read(void) { return 0; }

#endif
