import Yams

/// A YAML node with its key path and file, and typed accessors that fail with a
/// `ConfigurationError` naming the file, the key and what was expected.
public struct ConfigNode {
    let node: Node
    /// Its key path ("layers[0].source").
    public let key: String
    /// The configuration file.
    public let file: String

    init(node: Node, key: String, file: String) {
        self.node = node
        self.key = key
        self.file = file
    }

    /// An error naming this node's file, line and key.
    public func error(_ message: String) -> ConfigurationError {
        ConfigurationError(file: file, key: key, line: node.mark.map { $0.line }, message: message)
    }

    /// The entries of a mapping; a key not in `allowed` is an error (no silent typos).
    public func mapping(allowed: [String]) throws(ConfigurationError) -> [String: ConfigNode] {
        guard case .mapping(let mapping) = node else { throw error("expected a mapping (key: value)") }
        var result: [String: ConfigNode] = [:]
        for (keyNode, value) in mapping {
            guard let name = keyNode.string else { throw error("keys must be strings") }
            let child = ConfigNode(node: value, key: key.isEmpty ? name : "\(key).\(name)", file: file)
            guard allowed.contains(name) else {
                throw child.error("unknown key (known keys here: \(allowed.joined(separator: ", ")))")
            }
            guard result[name] == nil else { throw child.error("key appears twice") }
            result[name] = child
        }
        return result
    }

    /// The entries of a mapping whose keys are free (variables, headers).
    public func freeMapping() throws(ConfigurationError) -> [(String, ConfigNode)] {
        guard case .mapping(let mapping) = node else { throw error("expected a mapping (key: value)") }
        var result: [(String, ConfigNode)] = []
        for (keyNode, value) in mapping {
            guard let name = keyNode.string else { throw error("keys must be strings") }
            result.append((name, ConfigNode(node: value, key: "\(key).\(name)", file: file)))
        }
        return result
    }

    /// The items of a list.
    public func sequence() throws(ConfigurationError) -> [ConfigNode] {
        guard case .sequence(let items) = node else { throw error("expected a list") }
        return items.enumerated().map { ConfigNode(node: $1, key: "\(key)[\($0)]", file: file) }
    }

    /// A text value.
    public func string() throws(ConfigurationError) -> String {
        guard case .scalar(let scalar) = node else { throw error("expected a text value") }
        return scalar.string
    }

    /// A whole number in `range`.
    public func int(in range: ClosedRange<Int>) throws(ConfigurationError) -> Int {
        guard case .scalar = node, let value = node.int else { throw error("expected a whole number") }
        guard range.contains(value) else {
            throw error("\(value) is out of range (\(range.lowerBound)…\(range.upperBound))")
        }
        return value
    }

    /// A number in `range`.
    public func double(in range: ClosedRange<Double>) throws(ConfigurationError) -> Double {
        guard case .scalar = node, let value = node.float, value.isFinite else { throw error("expected a number") }
        guard range.contains(value) else {
            throw error("\(value) is out of range (\(range.lowerBound)…\(range.upperBound))")
        }
        return value
    }

    /// `true` or `false`.
    public func bool() throws(ConfigurationError) -> Bool {
        guard case .scalar = node, let value = node.bool else { throw error("expected true or false") }
        return value
    }

    /// A list of text values.
    public func strings() throws(ConfigurationError) -> [String] {
        var result: [String] = []
        for item in try sequence() { result.append(try item.string()) }
        return result
    }

    /// A list of `count` numbers.
    public func doubles(count: Int) throws(ConfigurationError) -> [Double] {
        let items = try sequence()
        guard items.count == count else { throw error("expected a list of \(count) numbers") }
        var result: [Double] = []
        for item in items { result.append(try item.double(in: -Double.greatestFiniteMagnitude ... .greatestFiniteMagnitude)) }
        return result
    }
}
