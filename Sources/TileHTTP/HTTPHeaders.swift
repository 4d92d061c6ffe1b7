/// An ordered list of header fields; lookups are case-insensitive.
public struct HTTPHeaders: Sendable, Equatable, Sequence, ExpressibleByDictionaryLiteral {
    /// The fields in order of arrival (or of addition).
    public private(set) var fields: [(name: HTTPHeaderName, value: String)]
    /// The bits (`HTTPHeaderName.bit`) of the names among `fields`: a request's handling looks
    /// up names most requests do not send (Content-Length, If-None-Match, Origin…), and each
    /// such lookup is then a test of a bit, not a pass over the fields. Kept with every change
    /// of `fields` (which only this type makes).
    private var present: UInt16 = 0

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
        fields = elements.map { (name: $0.0, value: $0.1) }
        present = fields.reduce(0) { $0 | $1.name.bit }
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

    /// How many fields are named `name` (no array made).
    public func count(of name: HTTPHeaderName) -> Int {
        surelyLacks(name) ? 0 : fields.reduce(0) { $1.name == name ? $0 + 1 : $0 }
    }

    /// Appends a field (duplicates allowed).
    public mutating func add(_ name: HTTPHeaderName, _ value: String) {
        fields.append((name: name, value: value))
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
