// Fuzz target http-parser: FuzzChecks.httpParser (Tests/FuzzChecks) on each input, trapping on what it
// reports. FuzzCorpusTests replays Fuzz/corpus/http-parser through the same check in `swift test`.

import FuzzChecks

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzHTTPParser(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    if let failure = FuzzChecks.httpParser(Array(UnsafeBufferPointer(start: data, count: size))) { fatalError(failure) }
    return 0
}
