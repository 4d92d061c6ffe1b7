#if os(Linux)
import CLinux
#endif
import Dispatch

/// Keeps glibc's heap from holding on to freed memory, so the process's RSS follows the memory
/// cache's bound (cached bytes plus a little) instead of growing with fragmentation as tiles
/// are evicted and render buffers come and go.
enum MemoryUpkeep {
    /// Seconds between two returns of free heap pages to the system.
    static let interval = 10.0

    /// Tunes malloc (fixed mmap threshold, one arena per core) and starts returning free pages
    /// every `interval` seconds; the timer runs while the returned source is kept.
    static func start(cores: Int) -> DispatchSourceTimer {
        #if os(Linux)
        clinux_tune_malloc(Int32(max(2, cores)))
        #endif
        let timer = DispatchSource.makeTimerSource(queue: .global(qos: .utility))
        timer.schedule(deadline: .now() + interval, repeating: interval, leeway: .seconds(1))
        #if os(Linux)
        timer.setEventHandler { _ = clinux_release_free_memory() }
        #endif
        timer.resume()
        return timer
    }
}
