/// A configuration that cannot be used: which file, which key, and what is wrong with it.
public struct ConfigurationError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The configuration file.
    public var file: String
    /// The key path ("layers[1].source.path"), empty for the file as a whole.
    public var key: String
    /// 1-based line in the file, where known.
    public var line: Int?
    /// What is wrong, and what to do about it.
    public var message: String

    /// An error.
    public init(file: String, key: String, line: Int? = nil, message: String) {
        self.file = file
        self.key = key
        self.line = line
        self.message = message
    }

    public var description: String {
        let place = line.map { "\(file):\($0)" } ?? file
        return key.isEmpty ? "\(place): \(message)" : "\(place): \(key): \(message)"
    }
}
