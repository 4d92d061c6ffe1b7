/// Polls `condition` every 10 ms for up to five seconds; whether it held.
func eventually(_ condition: () -> Bool) async throws -> Bool {
    for _ in 0 ..< 500 {
        if condition() { return true }
        try await Task.sleep(for: .milliseconds(10))
    }
    return condition()
}
