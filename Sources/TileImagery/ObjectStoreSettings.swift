import Foundation

/// Where `s3://` objects are read from (`server.s3` in the configuration, else the standard AWS
/// variables). Credentials never appear here: GDAL reads `AWS_ACCESS_KEY_ID`,
/// `AWS_SECRET_ACCESS_KEY` and `AWS_SESSION_TOKEN` from the environment itself.
public struct ObjectStoreSettings: Sendable, Equatable {
    /// An S3-compatible store's base URL (`http://127.0.0.1:9000`, `https://minio.example.org`);
    /// nil: `AWS_ENDPOINT_URL_S3`, else `AWS_ENDPOINT_URL`, else AWS itself.
    public var endpoint: String?
    /// The region requests are signed for; nil: `AWS_REGION`, else `AWS_DEFAULT_REGION`, else us-east-1.
    public var region: String?
    /// Path-style addressing (`endpoint/bucket/key`); nil: on when an endpoint is set, else off.
    public var pathStyle: Bool?

    /// Settings; every field nil takes the environment's.
    public init(endpoint: String? = nil, region: String? = nil, pathStyle: Bool? = nil) {
        self.endpoint = endpoint
        self.region = region
        self.pathStyle = pathStyle
    }

    /// GDAL's configuration options for `/vsis3/` from these settings over `environment`.
    func gdalOptions(environment: [String: String]) -> [(String, String)] {
        var options: [(String, String)] = []
        let endpoint = endpoint ?? environment["AWS_ENDPOINT_URL_S3"] ?? environment["AWS_ENDPOINT_URL"]
        if let endpoint, let url = URL(string: endpoint), let host = url.host {
            options.append(("AWS_S3_ENDPOINT", host + (url.port.map { ":\($0)" } ?? "")))
            options.append(("AWS_HTTPS", url.scheme == "http" ? "NO" : "YES"))
        }
        let pathStyle = pathStyle ?? (endpoint != nil)
        options.append(("AWS_VIRTUAL_HOSTING", pathStyle ? "FALSE" : "TRUE"))
        if let region = region ?? environment["AWS_REGION"] ?? environment["AWS_DEFAULT_REGION"] {
            options.append(("AWS_REGION", region))
        }
        // Without credentials in the environment or a credentials file, requests go unsigned
        // (public buckets) instead of GDAL asking an EC2 metadata address for some.
        let hasFile = ["AWS_SHARED_CREDENTIALS_FILE", "AWS_CONFIG_FILE", "AWS_PROFILE"].contains { environment[$0] != nil }
            || FileManager.default.fileExists(atPath: NSHomeDirectory() + "/.aws/credentials")
        let unsigned = environment["AWS_ACCESS_KEY_ID"] == nil && !hasFile
        options.append(("AWS_NO_SIGN_REQUEST", unsigned ? "YES" : "NO"))
        options.append(("CPL_AWS_AUTODETECT_EC2", "NO"))
        return options
    }
}
