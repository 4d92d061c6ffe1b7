/// A byte-counted least-recently-used list: a dictionary of slot indices into an
/// array of nodes linked both ways (an intrusive list without per-entry objects).
///
/// Not thread-safe: a `CacheShard` owns one behind its `Mutex`. Every operation
/// is O(1) except `removeAll(where:)`, which visits each entry once.
struct LRUList<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    /// One slot; free slots are chained through `next` and hold no value.
    private struct Node: Sendable {
        var key: Key
        var value: Value?
        var cost: Int
        var previous: Int
        var next: Int
    }

    /// Marks the end of a chain.
    private static var none: Int { -1 }

    private var nodes: ContiguousArray<Node> = []
    private var slots: [Key: Int] = [:]
    /// Most recently used entry.
    private var head = LRUList.none
    /// Least recently used entry, the next to be evicted.
    private var tail = LRUList.none
    private var freeSlot = LRUList.none

    /// Sum of the costs of the stored entries.
    private(set) var bytes = 0

    /// Number of stored entries.
    var count: Int { slots.count }

    /// The value for `key`, which becomes the most recently used entry.
    mutating func value(for key: Key) -> Value? {
        guard let slot = slots[key] else { return nil }
        if slot != head {
            unlink(slot)
            linkAtHead(slot)
        }
        return nodes[slot].value
    }

    /// Stores `value` as the most recently used entry, replacing any old value,
    /// then evicts least recently used entries until `bytes <= capacity`.
    /// - Returns: the number of entries evicted.
    /// - Precondition: `cost <= capacity`, so the new entry itself survives.
    mutating func insert(_ value: Value, for key: Key, cost: Int, capacity: Int) -> Int {
        if let slot = slots[key] {
            bytes += cost - nodes[slot].cost
            nodes[slot].value = value
            nodes[slot].cost = cost
            if slot != head {
                unlink(slot)
                linkAtHead(slot)
            }
        } else {
            let slot = allocate(Node(key: key, value: value, cost: cost, previous: Self.none, next: Self.none))
            slots[key] = slot
            bytes += cost
            linkAtHead(slot)
        }
        var evicted = 0
        while bytes > capacity, tail != head {
            remove(slotAt: tail)
            evicted += 1
        }
        return evicted
    }

    /// Removes the entry for `key`, if any.
    mutating func removeValue(for key: Key) {
        if let slot = slots[key] { remove(slotAt: slot) }
    }

    /// Removes every entry whose key satisfies `shouldRemove`.
    /// - Returns: the number of entries removed.
    mutating func removeAll(where shouldRemove: (Key) -> Bool) -> Int {
        var removed = 0
        var slot = head
        while slot != Self.none {
            let next = nodes[slot].next
            if shouldRemove(nodes[slot].key) {
                remove(slotAt: slot)
                removed += 1
            }
            slot = next
        }
        return removed
    }

    /// Drops every entry and the storage behind them.
    mutating func removeAll() {
        self = LRUList()
    }

    private mutating func allocate(_ node: Node) -> Int {
        guard freeSlot != Self.none else {
            nodes.append(node)
            return nodes.count - 1
        }
        let slot = freeSlot
        freeSlot = nodes[slot].next
        nodes[slot] = node
        return slot
    }

    private mutating func remove(slotAt slot: Int) {
        unlink(slot)
        slots[nodes[slot].key] = nil
        bytes -= nodes[slot].cost
        nodes[slot].value = nil  // release the value now, not when the slot is reused
        nodes[slot].cost = 0
        nodes[slot].next = freeSlot
        freeSlot = slot
    }

    private mutating func unlink(_ slot: Int) {
        let previous = nodes[slot].previous
        let next = nodes[slot].next
        if previous == Self.none { head = next } else { nodes[previous].next = next }
        if next == Self.none { tail = previous } else { nodes[next].previous = previous }
    }

    private mutating func linkAtHead(_ slot: Int) {
        nodes[slot].previous = Self.none
        nodes[slot].next = head
        if head == Self.none { tail = slot } else { nodes[head].previous = slot }
        head = slot
    }
}
