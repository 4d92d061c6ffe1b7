import Foundation

/// Removes secrets from text that may reach a log line or an error body: the values of the AWS
/// credential variables (and of `server.s3`'s), and the signature and credential parts of a
/// signed request (`X-Amz-Signature=…`, `Signature=…`, `Credential=…`).
public enum SecretRedaction {
    /// What stands in for a secret.
    public static let mask = "[redacted]"
    /// The environment variables whose values are secrets.
    static let variables = ["AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN", "AWS_ACCESS_KEY_ID"]
    /// Query and header parameters whose values are secrets (up to the next separator).
    static let parameters = ["X-Amz-Signature=", "X-Amz-Credential=", "X-Amz-Security-Token=", "Signature=", "Credential="]

    /// `text` with every secret replaced by `mask`.
    public static func redact(_ text: String) -> String {
        var text = text
        let environment = ProcessInfo.processInfo.environment
        for name in variables {
            if let value = environment[name], value.count >= 4 { text = text.replacingOccurrences(of: value, with: mask) }
        }
        for parameter in parameters {
            var searchStart = text.startIndex
            while let found = text.range(of: parameter, options: .caseInsensitive, range: searchStart ..< text.endIndex) {
                let end = text[found.upperBound...].firstIndex { "&,; \"'<\n".contains($0) } ?? text.endIndex
                text.replaceSubrange(found.upperBound ..< end, with: mask)
                searchStart = text.index(found.upperBound, offsetBy: mask.count)
            }
        }
        return text
    }
}
