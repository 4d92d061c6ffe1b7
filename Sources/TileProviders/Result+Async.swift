extension Result where Failure == TileProviderError {
    /// The result of an asynchronous provider call.
    public init(catching body: () async throws(TileProviderError) -> Success) async {
        do {
            self = .success(try await body())
        } catch {
            self = .failure(error)
        }
    }
}
