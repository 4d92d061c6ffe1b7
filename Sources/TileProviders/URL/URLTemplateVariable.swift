/// A named template variable (`{floor}`), its allowed values and its default.
/// Values come from the request's query string and are checked against this declaration.
public struct URLTemplateVariable: Sendable, Equatable {
    /// The name used in the template and the query string.
    public let name: String
    /// The values a request may give; nil accepts any value made of `[A-Za-z0-9_-]`.
    public let allowedValues: [String]?
    /// The value when the request gives none.
    public let defaultValue: String

    /// A variable; the default and every allowed value must be safe in a path or URL.
    public init(name: String, allowedValues: [String]? = nil, defaultValue: String) throws(TileProviderError) {
        for value in (allowedValues ?? []) + [defaultValue] where !Self.isSafe(value) {
            throw .invalidConfiguration("variable \(name): value \"\(value)\" may only use letters, digits, _ and -")
        }
        if let allowedValues, !allowedValues.contains(defaultValue) {
            throw .invalidConfiguration("variable \(name): default \"\(defaultValue)\" is not one of its values \(allowedValues)")
        }
        self.name = name
        self.allowedValues = allowedValues
        self.defaultValue = defaultValue
    }

    /// Whether a request may use `value`. Safe values cannot form "/", "..", "%2f" or a scheme.
    public func allows(_ value: String) -> Bool {
        allowedValues?.contains(value) ?? Self.isSafe(value)
    }

    static func isSafe(_ value: String) -> Bool {
        !value.isEmpty && value.utf8.count <= 64 && value.utf8.allSatisfy { byte in
            (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")) || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
                || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-")
        }
    }
}
