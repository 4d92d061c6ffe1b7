// Fuzz target png: FuzzChecks.png (Tests/FuzzChecks) on each input, trapping on what it
// reports. FuzzCorpusTests replays Fuzz/corpus/png through the same check in `swift test`.

import FuzzChecks

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPNG(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    if let failure = FuzzChecks.png(Array(UnsafeBufferPointer(start: data, count: size))) { fatalError(failure) }
    return 0
}
