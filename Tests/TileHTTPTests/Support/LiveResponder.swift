// A responder for live connection tests: sizes, delays and misbehaviours chosen by the path.

import Foundation
#if canImport(Glibc)
import Glibc
#endif
import Dispatch
import Sockets
import Synchronization
@testable import TileHTTP

/// The bytes `/file/N` answers with: byte i is i % 251.
func filePattern(_ count: Int) -> [UInt8] {
    let period = (0 ..< 251).map { UInt8($0) }
    var bytes: [UInt8] = []
    bytes.reserveCapacity(count)
    while bytes.count < count { bytes.append(contentsOf: period.prefix(count - bytes.count)) }
    return bytes
}

/// A temporary file of `filePattern(count)`, open; removed and closed when released.
final class PatternFile: Sendable {
    let descriptor: Int32

    init(count: Int) {
        var template = Array("/tmp/tilelayer-sendfile-XXXXXX".utf8CString)
        descriptor = mkstemp(&template)
        precondition(descriptor >= 0, "mkstemp failed")
        unlink(template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) })
        let bytes = filePattern(count)
        let written = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        precondition(written == count, "short write")
    }

    deinit { Glibc.close(descriptor) }

    private static let made = Mutex<[Int: PatternFile]>([:])

    /// One file per size for the whole run: writing megabytes per request would hold the
    /// responder's event loop for seconds in a debug build (sendfile takes an explicit offset,
    /// so answers can share the descriptor).
    static func shared(count: Int) -> PatternFile {
        made.withLock { files in
            if let file = files[count] { return file }
            let file = PatternFile(count: count)
            files[count] = file
            return file
        }
    }
}

/// Answers `/bytes/N` with N bytes (synchronously), `/later/N` with N bytes after 20 ms,
/// `/slow/N` after 1 s, `/file/N` with N bytes of a file (sent with sendfile), `/never` never,
/// `/twice/N` twice (the second must be ignored), and `/host` with the Host it saw.
struct SizedResponder: HTTPResponder {
    func respond(
        to request: HTTPRequest, completion: @escaping @Sendable (HTTPResponse) -> Void
    ) -> HTTPResponse? {
        let count = request.pathSegments.count == 2 ? Int(request.pathSegments[1]) ?? 0 : 0
        if request.pathSegments.first == "file" {
            var response = HTTPResponse(status: .ok)
            let file = PatternFile.shared(count: count)
            response.content = .file(HTTPFileRegion(descriptor: file.descriptor, count: count, owner: file))
            return response
        }
        switch request.pathSegments.first {
        case "never":
            return nil
        case "host":
            return .text(.ok, request.headers[.host] ?? "-")
        case "twice":
            let response = HTTPResponse(status: .ok, body: [UInt8](repeating: 1, count: count))
            DispatchQueue.global().asyncAfter(deadline: .now() + 0.02) {
                completion(response)
                completion(.text(.internalServerError, "second answer"))
            }
            return nil
        default:
            break
        }
        let response = HTTPResponse(status: .ok, body: [UInt8](repeating: UInt8(count % 251), count: count))
        if request.pathSegments.first == "later" {
            DispatchQueue.global().asyncAfter(deadline: .now() + 0.02) { completion(response) }
            return nil
        }
        if request.pathSegments.first == "slow" {
            DispatchQueue.global().asyncAfter(deadline: .now() + 1) { completion(response) }
            return nil
        }
        return response
    }
}
