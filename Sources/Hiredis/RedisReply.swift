/// A Redis answer (RESP 2), copied out of hiredis's reply object.
public enum RedisReply: Sendable, Equatable {
    /// A bulk string: bytes, binary-safe.
    case bytes([UInt8])
    /// An integer (`INCR`, `DEL`).
    case integer(Int)
    /// A status line (`OK`, `PONG`).
    case status(String)
    /// A null bulk string (`GET` of a missing key).
    case null
    /// An array of replies.
    case array([RedisReply])

    /// The integer of an integer reply, or of a bulk string holding one (`GET` of a counter).
    public var integerValue: Int? {
        switch self {
        case .integer(let value): return value
        case .bytes(let bytes): return Int(String(decoding: bytes, as: UTF8.self))
        default: return nil
        }
    }
}
