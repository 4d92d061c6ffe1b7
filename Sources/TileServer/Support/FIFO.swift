/// Elements taken in the order they were added (the worker pool's waiting jobs, the render
/// threads' queue): an array read from `head` on, its taken front let go once it is empty or
/// most of the array, so adding and taking are O(1) amortized without ring arithmetic.
struct FIFO<Element> {
    private var elements: [Element] = []
    /// Index of the first element not yet taken.
    private var head = 0

    /// Elements not yet taken.
    var count: Int { elements.count - head }

    mutating func append(_ element: Element) { elements.append(element) }

    /// The oldest element not yet taken, taken now; nil when none is left.
    mutating func takeFirst() -> Element? {
        guard head < elements.count else { return nil }
        let element = elements[head]
        head += 1
        if head == elements.count {
            elements.removeAll(keepingCapacity: true)
            head = 0
        } else if head > 64 && head * 2 > elements.count {
            elements.removeFirst(head)
            head = 0
        }
        return element
    }
}
