internal import CGDAL
import Glibc

/// GDAL's error and warning messages, kept per thread instead of printed on standard error:
/// a GDAL call is followed by `take()` on the same thread, which returns what that call said.
/// Every message is passed through `SecretRedaction` before it is kept, so no key, token or
/// signature reaches a log line or an error body.
enum GDALMessages {
    /// The messages kept per thread, at most `limit` of them (the first ones: what failed first
    /// says most, "not recognized as a supported file format" follows it).
    static let limit = 6
    /// A message is cut to this many characters (a store's XML answer can be long).
    static let maxLength = 400

    /// One thread's messages.
    private final class Box {
        var messages: [String] = []
    }

    nonisolated(unsafe) private static var key = pthread_key_t()
    private static let keyCreated: Bool = {
        pthread_key_create(&key) { pointer in
            if let pointer { Unmanaged<AnyObject>.fromOpaque(pointer).release() }
        }
        return true
    }()

    private static var box: Box {
        _ = keyCreated
        if let pointer = pthread_getspecific(key) {
            return Unmanaged<AnyObject>.fromOpaque(pointer).takeUnretainedValue() as! Box
        }
        let box = Box()
        pthread_setspecific(key, Unmanaged<AnyObject>.passRetained(box).toOpaque())
        return box
    }

    /// Installs the handler (process-wide, once): GDAL then prints nothing.
    static func install() {
        _ = keyCreated
        CPLSetErrorHandler { level, _, message in
            guard level.rawValue >= CE_Warning.rawValue, let message else { return }
            GDALMessages.record(String(cString: message))
        }
    }

    /// Keeps `message` (redacted, cut) for this thread.
    static func record(_ message: String) {
        let box = box
        guard box.messages.count < limit else { return }
        var text = SecretRedaction.redact(message)
        if text.count > maxLength { text = String(text.prefix(maxLength)) + "…" }
        box.messages.append(text)
    }

    /// Forgets this thread's messages (before a call whose messages are wanted).
    static func reset() {
        box.messages.removeAll(keepingCapacity: true)
        CPLErrorReset()
    }

    /// This thread's messages since the last `reset`/`take`, joined; "" when GDAL said nothing.
    static func take() -> String {
        let box = box
        defer { box.messages.removeAll(keepingCapacity: true) }
        return box.messages.joined(separator: "; ")
    }
}
