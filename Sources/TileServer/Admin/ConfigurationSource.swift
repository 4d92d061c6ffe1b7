/// Reads the configuration anew (the file a reload re-reads).
public typealias ConfigurationSource = @Sendable () throws(ConfigurationError) -> Configuration
