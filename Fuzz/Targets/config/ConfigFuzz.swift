// Fuzz target: Configuration.parse on arbitrary text ends in a configuration or a
// ConfigurationError naming the file, never a crash.

import TileServer

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzConfig(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    do {
        _ = try Configuration.parse(yaml: text, file: "/fuzz/tilelayer.yml")
    } catch {
        _ = error.description
    }
    return 0
}
