/// Percent-decoding of URI components (RFC 3986 §2.1).
public enum PercentDecoding {
    /// Decodes `%XX` escapes; nil when an escape is malformed or the result is not UTF-8.
    public static func decode<S: StringProtocol>(_ text: S) -> String? {
        decode(text, plusIsSpace: false)
    }

    /// Decodes a query component, where `+` also stands for a space.
    public static func decodeQueryComponent<S: StringProtocol>(_ text: S) -> String? {
        decode(text, plusIsSpace: true)
    }

    private static func decode<S: StringProtocol>(_ text: S, plusIsSpace: Bool) -> String? {
        // Most components have nothing to decode: no copy of their bytes then.
        guard text.utf8.contains(where: { $0 == UInt8(ascii: "%") || (plusIsSpace && $0 == UInt8(ascii: "+")) }) else {
            return String(text)
        }
        let utf8 = Array(text.utf8)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(utf8.count)
        var index = 0
        while index < utf8.count {
            let byte = utf8[index]
            if byte == UInt8(ascii: "%") {
                guard index + 2 < utf8.count, let high = hexValue(utf8[index + 1]), let low = hexValue(utf8[index + 2])
                else { return nil }
                bytes.append(high << 4 | low)
                index += 3
            } else {
                bytes.append(plusIsSpace && byte == UInt8(ascii: "+") ? UInt8(ascii: " ") : byte)
                index += 1
            }
        }
        return String(validating: bytes, as: UTF8.self)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
        default: return nil
        }
    }
}
