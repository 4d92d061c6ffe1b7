extension Array where Element: Sendable {
    /// `map` with every transform running concurrently in a task group; results in input order.
    func concurrentMap<T: Sendable>(_ transform: @escaping @Sendable (Element) async -> T) async -> [T] {
        await withTaskGroup(of: (Int, T).self) { group in
            for (index, element) in enumerated() {
                group.addTask { (index, await transform(element)) }
            }
            var results = [T?](repeating: nil, count: count)
            for await (index, result) in group { results[index] = result }
            return results.map { $0! }
        }
    }
}
