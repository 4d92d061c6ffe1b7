import Dispatch
import Foundation
import Synchronization
import TileHTTP

/// A static-file server for tests, run by `LiveServer`: one archive at `/archive.pmtiles` with
/// `Range` (206 + Content-Range), a strong `ETag` per version and `If-Match` (412 when the
/// version changed), as object stores serve PMTiles. `replace(with:)` swaps the archive (a new
/// ETag); `gone` answers 404. It records each request's Range and If-Match.
final class RangeFileServer: HTTPResponder, Sendable {
    struct Seen: Sendable, Equatable {
        var range: String?
        var ifMatch: String?
        var status: Int
    }

    private let archive: Mutex<(bytes: [UInt8], version: Int)>
    let gone = Atomic<Bool>(false)
    let seen = Mutex<[Seen]>([])

    init(file: String) throws {
        archive = Mutex((Array(try Data(contentsOf: URL(fileURLWithPath: file))), 1))
    }

    /// Serves `file`'s bytes from now on, under a new ETag.
    func replace(with file: String) throws {
        let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: file)))
        archive.withLock { $0 = (bytes, $0.version + 1) }
    }

    var etag: String { archive.withLock { "\"v\($0.version)\"" } }

    func respond(
        to request: HTTPRequest, completion: @escaping @Sendable (HTTPResponse) -> Void
    ) -> HTTPResponse? {
        // Off the event loop, as a real file server's disk read would be.
        DispatchQueue.global().async { [self] in
            let response = answer(request)
            seen.withLock {
                $0.append(Seen(range: request.headers["Range"], ifMatch: request.headers["If-Match"], status: response.status.code))
            }
            completion(response)
        }
        return nil
    }

    private func answer(_ request: HTTPRequest) -> HTTPResponse {
        guard request.pathSegments == ["archive.pmtiles"], !gone.load(ordering: .relaxed) else {
            return .text(.notFound, "no such file")
        }
        let (bytes, version) = archive.withLock { $0 }
        let etag = "\"v\(version)\""
        if let ifMatch = request.headers["If-Match"], ifMatch != etag, ifMatch != "*" {
            return .text(HTTPStatus(code: 412, reason: "Precondition Failed"), "the archive changed")
        }
        guard let range = request.headers["Range"] else {
            return HTTPResponse(status: .ok, headers: ["ETag": etag], body: bytes)
        }
        // bytes=FIRST-LAST (the only form the PMTiles reader sends).
        let parts = range.dropFirst("bytes=".count).split(separator: "-").compactMap { Int($0) }
        guard range.hasPrefix("bytes="), parts.count == 2, parts[0] <= parts[1], parts[0] < bytes.count else {
            return HTTPResponse(status: HTTPStatus(code: 416, reason: "Range Not Satisfiable"),
                                headers: ["Content-Range": "bytes */\(bytes.count)"])
        }
        let last = min(parts[1], bytes.count - 1)
        return HTTPResponse(status: HTTPStatus(code: 206, reason: "Partial Content"),
                            headers: ["ETag": etag, "Content-Range": "bytes \(parts[0])-\(last)/\(bytes.count)"],
                            body: Array(bytes[parts[0] ... last]))
    }
}
