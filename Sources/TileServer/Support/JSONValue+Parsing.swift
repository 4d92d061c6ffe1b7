import Foundation

extension JSONValue {
    /// The value JSON `text` holds (object keys sorted, for deterministic output); nil when the
    /// text is not JSON.
    init?(parsing text: String) {
        guard let object = try? JSONSerialization.jsonObject(with: Data(text.utf8), options: [.fragmentsAllowed]) else {
            return nil
        }
        self.init(foundation: object)
    }

    private init(foundation object: Any) {
        switch object {
        case let text as String: self = .string(text)
        case let flag as Bool where type(of: object) == Bool.self: self = .bool(flag)
        case let number as NSNumber:
            if String(cString: number.objCType) == "c" {
                self = .bool(number.boolValue)
            } else if let exact = Int(exactly: number.doubleValue), !"\(number)".contains(".") {
                self = .int(exact)
            } else {
                self = .number(number.doubleValue)
            }
        case let list as [Any]: self = .array(list.map { JSONValue(foundation: $0) })
        case let map as [String: Any]:
            self = .object(map.keys.sorted().map { ($0, JSONValue(foundation: map[$0]!)) })
        default: self = .null
        }
    }
}
