/// A byte-counted least-recently-used list: a dictionary of slot indices into an
/// array of nodes linked both ways (an intrusive list without per-entry objects).
///
/// Not thread-safe: a `CacheShard` owns one behind its `Mutex`. Every operation
/// is O(1) except `removeAll(where:)`, which visits each entry once. The hit path
/// is `@inlinable` so that clients specialize it for their concrete types.
@usableFromInline
struct LRUList<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    /// One slot; free slots are chained through `next` and hold no value.
    @usableFromInline
    struct Node: Sendable {
        @usableFromInline var key: Key
        @usableFromInline var value: Value?
        @usableFromInline var cost: Int
        @usableFromInline var previous: Int
        @usableFromInline var next: Int

        @usableFromInline
        init(key: Key, value: Value?, cost: Int, previous: Int, next: Int) {
            (self.key, self.value, self.cost, self.previous, self.next) = (key, value, cost, previous, next)
        }
    }

    /// Marks the end of a chain.
    @inlinable static var none: Int { -1 }

    @usableFromInline var nodes: ContiguousArray<Node> = []
    @usableFromInline var slots: [Key: Int] = [:]
    /// Most recently used entry.
    @usableFromInline var head = LRUList.none
    /// Least recently used entry, the next to be evicted.
    @usableFromInline var tail = LRUList.none
    @usableFromInline var freeSlot = LRUList.none

    /// Sum of the costs of the stored entries.
    @usableFromInline private(set) var bytes = 0

    /// Number of stored entries.
    var count: Int { slots.count }

    /// Whether `accepts` holds for the keys of the least recently used entries whose costs add
    /// up to `bytes` (the entries an insert would evict to free them), least recent first.
    func leastRecentlyUsed(freeing bytes: Int, all accepts: (Key) -> Bool) -> Bool {
        var freed = 0
        var slot = tail
        while freed < bytes, slot != Self.none {
            guard accepts(nodes[slot].key) else { return false }
            freed += nodes[slot].cost
            slot = nodes[slot].previous
        }
        return true
    }

    @usableFromInline init() {}

    /// The value for `key`, which becomes the most recently used entry.
    @inlinable
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

    @inlinable
    mutating func unlink(_ slot: Int) {
        let previous = nodes[slot].previous
        let next = nodes[slot].next
        if previous == Self.none { head = next } else { nodes[previous].next = next }
        if next == Self.none { tail = previous } else { nodes[next].previous = previous }
    }

    @inlinable
    mutating func linkAtHead(_ slot: Int) {
        nodes[slot].previous = Self.none
        nodes[slot].next = head
        if head == Self.none { tail = slot } else { nodes[head].previous = slot }
        head = slot
    }
}
