// What tests of the VFS's own reader share: distinct row values, a database's pages settled
// so reads without waiting can take them, and readers in a read transaction.

#if os(Linux)
import Foundation
import Glibc
@testable import TileProviders

protocol StraightReadTesting {}

extension StraightReadTesting {
    /// Bytes of a row: distinct per row and position.
    static func value(row: Int, length: Int) -> [UInt8] {
        (0 ..< length).map { UInt8(truncatingIfNeeded: $0 &* 131 &+ row &* 7 &+ ($0 >> 8)) }
    }

    /// `bytes` as an SQL blob literal.
    static func hex(_ bytes: [UInt8]) -> String {
        "x'" + bytes.map { String(format: "%02x", $0) }.joined() + "'"
    }

    /// Writes back and waits for the file's pages (a read without waiting is refused, for a
    /// moment, a page writeback holds), and looks its journal and WAL file up once: a path never
    /// looked up is not in the kernel's caches, so the VFS's checks for them could not tell
    /// without waiting.
    func settle(_ file: String) {
        let fd = open(file, O_RDONLY | O_CLOEXEC)
        if fd >= 0 { fsync(fd); close(fd) }
        for companion in ["-journal", "-wal"] { _ = access(file + companion, F_OK) }
    }

    /// Reads `file` whole, as a thread that may wait would: these machines page out idle page
    /// cache, and a read without waiting never reads a page back.
    func readBack(_ file: String) {
        _ = try? Data(contentsOf: URL(fileURLWithPath: file))
    }

    /// A connection that reads without waiting, in a read transaction holding the file's lock.
    func reader(_ file: String) throws -> SQLiteConnection {
        settle(file)
        let connection = try SQLiteConnection(path: file, mode: .readOnlyWithoutWaiting)
        try connection.execute("BEGIN")
        try connection.withStatement("SELECT count(*) FROM sqlite_schema") { (statement) throws(TileProviderError) in
            _ = try statement.step()
        }
        return connection
    }

    /// `read`, asked again while the kernel refuses it for a moment (up to 2 s), after the file
    /// is read back once.
    func settled<Found>(_ connection: SQLiteConnection, _ read: () throws -> Found) throws -> Found {
        for attempt in 0 ..< 200 {
            do { return try read() } catch {
                if attempt == 0 { readBack(connection.path) }
                usleep(10_000)
            }
        }
        return try read()
    }
}
#endif
