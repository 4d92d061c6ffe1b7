#define _GNU_SOURCE
#include "CSQLiteNoWait.h"

#ifdef __linux__
#include "nowait_file.h"
#include <stdatomic.h>
#include <stdint.h>
#include <time.h>

// What mincore found lately: spans of a file's pages the page cache held whole, and when.
//
// A value lent from pages found there less than the file's residency trust ago
// (`csqlite_nowait_trust_residency`) is lent again without asking: the pages were just read
// (the value sent from them), so they are the last the kernel would evict, and losing them
// within a second or so takes a machine short enough of memory that everything waits. (Or a
// deliberate drop: `echo 1 > /proc/sys/vm/drop_caches`, a tool's POSIX_FADV_DONTNEED: the
// loop that lends from such a page within the trust waits for the disk once.) Asking costs a
// system call a tile (mincore walks the page tables and allocates a page for its answer: 6 % of
// an uncached MBTiles request's CPU on the uniform working set, perf on a 2-vCPU AMD EPYC VM).
//
// One table for the process, so the event loops' readers of one file share what each found: a
// slot of `MEMO_SLOTS`, picked by the span's hash, holds the hash's top bits and the tick of the
// answer in one word, so a slot another thread writes meanwhile reads as one answer or the
// other, never a mix. Two spans in one slot only ask again.

#define MEMO_SLOTS (1 << 16)
#define TICK_BITS 24
#define TICK_MASK ((UINT64_C(1) << TICK_BITS) - 1)

static _Atomic uint64_t memo[MEMO_SLOTS];

/// Spans the calling thread took from the memo (`nowait_recently_resident` said yes), for tests.
static _Thread_local long residency_trusted;

long csqlite_nowait_residency_trusted(void) { return residency_trusted; }

/// Ticks of 1/16 s (2^24 of them: 12 days before a tick repeats), from the coarse clock (a read
/// of the vDSO's page, no system call).
static uint64_t tick_now(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC_COARSE, &now);
    return ((uint64_t)now.tv_sec << 4 | (uint64_t)now.tv_nsec / 62500000) & TICK_MASK;
}

static uint64_t mix(uint64_t value) {
    value ^= value >> 30;
    value *= UINT64_C(0xbf58476d1ce4e5b9);
    value ^= value >> 27;
    value *= UINT64_C(0x94d049bb133111eb);
    return value ^ (value >> 31);
}

void csqlite_nowait_trust_residency(NoWaitFile *file, double seconds) {
    if (file == 0) return;
    // Whole ticks, rounded up (a trust shorter than a tick is still one), at most 2^20 (18 h).
    double ticks = seconds * 16;
    if (!(ticks > 0)) file->residency_ticks = 0;
    else if (ticks >= 1 << 20) file->residency_ticks = 1 << 20;
    else file->residency_ticks = (int)ticks + ((double)(int)ticks < ticks);
}

uint64_t nowait_file_identity(uint64_t device, uint64_t inode, uint64_t changed, uint64_t changed_nanoseconds) {
    return mix(mix(mix(device) ^ inode) ^ changed) ^ changed_nanoseconds;
}

uint64_t nowait_residency_key(const NoWaitFile *file, int kind, uint64_t first, uint64_t second) {
    return mix(file->identity ^ mix(mix(first ^ (uint64_t)kind << 56) + second));
}

int nowait_recently_resident(const NoWaitFile *file, uint64_t key) {
    if (file->residency_ticks <= 0) return 0;
    uint64_t found = atomic_load_explicit(&memo[key & (MEMO_SLOTS - 1)], memory_order_relaxed);
    if (found == 0 || found >> TICK_BITS != key >> TICK_BITS) return 0;
    uint64_t age = (tick_now() - (found & TICK_MASK)) & TICK_MASK;
    if (age >= (uint64_t)file->residency_ticks) return 0;
    residency_trusted++;
    return 1;
}

void nowait_note_resident(const NoWaitFile *file, uint64_t key) {
    if (file->residency_ticks <= 0) return;
    uint64_t entry = (key >> TICK_BITS) << TICK_BITS | tick_now();
    atomic_store_explicit(&memo[key & (MEMO_SLOTS - 1)], entry, memory_order_relaxed);
}
#else

void csqlite_nowait_trust_residency(struct NoWaitFile *file, double seconds) { (void)file; (void)seconds; }
long csqlite_nowait_residency_trusted(void) { return 0; }
#endif
