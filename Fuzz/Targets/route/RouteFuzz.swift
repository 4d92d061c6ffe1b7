// Fuzz target route: FuzzChecks.route (Tests/FuzzChecks) on each input, trapping on what it
// reports. FuzzCorpusTests replays Fuzz/corpus/route through the same check in `swift test`.

import FuzzChecks

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzRoute(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    if let failure = FuzzChecks.route(Array(UnsafeBufferPointer(start: data, count: size))) { fatalError(failure) }
    return 0
}
