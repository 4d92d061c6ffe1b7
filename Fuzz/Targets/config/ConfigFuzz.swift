// Fuzz target config: FuzzChecks.config (Tests/FuzzChecks) on each input, trapping on what it
// reports. FuzzCorpusTests replays Fuzz/corpus/config through the same check in `swift test`.

import FuzzChecks

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzConfig(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    if let failure = FuzzChecks.config(Array(UnsafeBufferPointer(start: data, count: size))) { fatalError(failure) }
    return 0
}
