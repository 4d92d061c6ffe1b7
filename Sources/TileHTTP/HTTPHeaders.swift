/// An ordered list of header fields; lookups are case-insensitive.
public struct HTTPHeaders: Sendable, Equatable, Sequence, ExpressibleByDictionaryLiteral {
    /// The fields in order of arrival (or of addition).
    public private(set) var fields: [(name: HTTPHeaderName, value: String)]
    /// The bits (`HTTPHeaderName.bit`) of the names among `fields`: a request's handling looks
    /// up names most requests do not send (Content-Length, If-None-Match, Origin…), and each
    /// such lookup is then a test of a bit, not a pass over the fields. Kept with every change
    /// of `fields` (which only this type makes).
    private var present: UInt16 = 0
    /// The bits of those names that more than one field has.
    private var repeated: UInt16 = 0

    /// An empty list.
    public init() {
        fields = []
    }

    /// An empty list with room for `capacity` fields (one allocation as a parsed head's fields arrive).
    public init(reservingCapacity capacity: Int) {
        fields = []
        fields.reserveCapacity(capacity)
    }

    public init(dictionaryLiteral elements: (HTTPHeaderName, String)...) {
        fields = []
        for (name, value) in elements { add(name, value) }
    }

    /// Whether a field is named `name`.
    public func contains(_ name: HTTPHeaderName) -> Bool {
        name.bit != 0 ? present & name.bit != 0 : fields.contains { $0.name == name }
    }

    /// Whether no field can be named `name`, told from `present` alone.
    private func surelyLacks(_ name: HTTPHeaderName) -> Bool { present & name.bit == 0 && name.bit != 0 }

    /// The first value of `name`, if any.
    public subscript(_ name: HTTPHeaderName) -> String? {
        surelyLacks(name) ? nil : fields.first { $0.name == name }?.value
    }

    /// Every value of `name`, in order.
    public func values(_ name: HTTPHeaderName) -> [String] {
        surelyLacks(name) ? [] : fields.compactMap { $0.name == name ? $0.value : nil }
    }

    /// How many fields are named `name` (no array made; for a name with a bit, none or one
    /// is told from the bits).
    public func count(of name: HTTPHeaderName) -> Int {
        if name.bit != 0 && repeated & name.bit == 0 { return present & name.bit == 0 ? 0 : 1 }
        return fields.reduce(0) { $1.name == name ? $0 + 1 : $0 }
    }

    /// Whether a field named `name` lists `token` (lower-case ASCII) among its comma-separated
    /// elements (RFC 9110 §5.6.1), in any case, with optional whitespace around each: read in
    /// place, no strings made.
    public func lists(_ token: StaticString, in name: HTTPHeaderName) -> Bool {
        let wanted = UnsafeBufferPointer(start: token.utf8Start, count: token.utf8CodeUnitCount)
        assert(!wanted.isEmpty && wanted.allSatisfy { $0.asciiLowercased == $0 }, "a token is lower-case and not empty")
        guard !surelyLacks(name) else { return false }
        return fields.contains { field in
            guard field.name == name else { return false }
            var value = field.value
            return value.withUTF8 { Self.list($0, contains: wanted) }
        }
    }

    /// Whether the comma-separated list `bytes` has an element equal to `wanted` (lower-case)
    /// once trimmed of spaces and tabs and with A-Z made a-z.
    private static func list(_ bytes: UnsafeBufferPointer<UInt8>, contains wanted: UnsafeBufferPointer<UInt8>) -> Bool {
        var start = 0
        while start < bytes.count {
            var end = start
            while end < bytes.count && bytes[end] != UInt8(ascii: ",") { end += 1 }
            var lower = start, upper = end
            while lower < upper && bytes[lower].isSpaceOrTab { lower += 1 }
            while upper > lower && bytes[upper - 1].isSpaceOrTab { upper -= 1 }
            if upper - lower == wanted.count && (0 ..< wanted.count).allSatisfy({ bytes[lower + $0].asciiLowercased == wanted[$0] }) {
                return true
            }
            start = end + 1
        }
        return false
    }

    /// Appends a field (duplicates allowed).
    public mutating func add(_ name: HTTPHeaderName, _ value: String) {
        fields.append((name: name, value: value))
        repeated |= present & name.bit
        present |= name.bit
    }

    /// Replaces every field of `name` with one value.
    public mutating func set(_ name: HTTPHeaderName, _ value: String) {
        remove(name)
        add(name, value)
    }

    /// Removes every field of `name`.
    public mutating func remove(_ name: HTTPHeaderName) {
        fields.removeAll { $0.name == name }
        present &= ~name.bit
        repeated &= ~name.bit
    }

    /// The number of fields.
    public var count: Int { fields.count }

    public func makeIterator() -> IndexingIterator<[(name: HTTPHeaderName, value: String)]> {
        fields.makeIterator()
    }

    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.fields.count == rhs.fields.count
            && zip(lhs.fields, rhs.fields).allSatisfy { $0.name == $1.name && $0.value == $1.value }
    }
}
