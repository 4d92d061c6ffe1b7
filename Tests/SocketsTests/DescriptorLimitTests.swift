// Raising RLIMIT_NOFILE at start so maxConnections fits.

#if canImport(Glibc)
import Glibc
#endif
import Sockets
import Testing

@Suite(.serialized) struct DescriptorLimitTests {
    private func limits() -> (soft: UInt64, hard: UInt64) {
        var limit = rlimit()
        getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit)
        return (UInt64(limit.rlim_cur), UInt64(limit.rlim_max))
    }

    private func setSoft(_ soft: UInt64) {
        var limit = rlimit()
        getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit)
        limit.rlim_cur = rlim_t(soft)
        setrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit)
    }

    @Test func theSoftLimitIsRaisedToFitAndCappedByTheHardOne() {
        let original = limits()
        defer { setSoft(original.soft) }
        #expect(System.raiseDescriptorLimit(to: 16) == .sufficient(soft: original.soft))

        // Lowered by one (never low enough to starve the tests running beside this one).
        let lowered = original.soft - 1
        setSoft(lowered)
        #expect(System.raiseDescriptorLimit(to: original.soft) == .raised(from: lowered, to: original.soft))
        #expect(limits().soft == original.soft)

        setSoft(lowered)
        if original.hard < UInt64(Int32.max) {
            #expect(System.raiseDescriptorLimit(to: original.hard + 1) == .capped(needed: original.hard + 1, hard: original.hard))
            #expect(limits().soft == original.hard)
        } else {
            // An unlimited hard limit caps nothing: the soft limit goes where it is asked.
            #expect(System.raiseDescriptorLimit(to: original.soft) == .raised(from: lowered, to: original.soft))
        }
    }
}
