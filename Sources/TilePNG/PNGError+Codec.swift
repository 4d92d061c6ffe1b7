internal import CPNGCodec

extension PNGError {
    /// Maps a failed `cpng_status` to a structured error.
    /// `width`, `height` and `limit` fill `.tooLarge` when the C side reports it.
    init(status: cpng_status, width: Int = 0, height: Int = 0, limit: Int = 0) {
        let reason = status.messageText
        switch cpng_code(rawValue: UInt32(status.code)) {
        case CPNG_NOT_PNG: self = .notPNG(reason: reason)
        case CPNG_TRUNCATED: self = .truncated
        case CPNG_TOO_LARGE: self = .tooLarge(width: width, height: height, limit: limit)
        case CPNG_NO_MEMORY: self = .outOfMemory(reason: reason)
        case CPNG_INVALID_ARGUMENT: self = .invalidSettings(reason: reason)
        default: self = .corrupt(reason: reason)
        }
    }
}

extension cpng_status {
    /// A blank status for the C side to fill.
    static var empty: cpng_status { cpng_status() }

    /// The NUL-terminated message as a Swift string.
    var messageText: String {
        withUnsafeBytes(of: message) { raw in
            let bytes = raw.prefix { $0 != 0 }
            return String(decoding: bytes, as: UTF8.self)
        }
    }
}
