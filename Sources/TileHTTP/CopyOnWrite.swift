/// A value kept in one shared box and copied on the first change after a copy: a struct with
/// several counted fields (arrays, strings) that is copied often then costs one reference
/// count per copy, not one per field.
struct CopyOnWrite<Value: Sendable>: Sendable {
    // `@unchecked Sendable`: a box is changed only through `value`'s setter, which first makes
    // it unshared, so no two copies (or threads) ever see one box change.
    private final class Box: @unchecked Sendable {
        var value: Value
        init(_ value: Value) { self.value = value }
    }

    private var box: Box

    init(_ value: Value) {
        box = Box(value)
    }

    var value: Value {
        get { box.value }
        _modify {
            if !isKnownUniquelyReferenced(&box) { box = Box(box.value) }
            yield &box.value
        }
    }
}
