import AsyncHTTPClient
import NIOCore
import NIOPosix

/// Why an upstream tile request failed, as counted in metrics: a closed domain.
public enum UpstreamFailureKind: String, Sendable, CaseIterable {
    /// No complete answer in time (connect, read, or the whole request).
    case timeout
    /// No connection: refused, reset, unreachable, closed before the answer.
    case connect
    /// The upstream answered 5xx.
    case status5xx
    /// Anything else: 429 and other unexpected statuses, a body over the limit, TLS, a bad URL.
    case other

    /// The kind of a transport error thrown by AsyncHTTPClient.
    init(error: any Error) {
        if let client = error as? HTTPClientError {
            switch client {
            case .deadlineExceeded, .connectTimeout, .readTimeout, .writeTimeout, .getConnectionFromPoolTimeout,
                 .tlsHandshakeTimeout, .httpProxyHandshakeTimeout, .socksHandshakeTimeout:
                self = .timeout
            case .remoteConnectionClosed:
                self = .connect
            default:
                self = .other
            }
        } else if let channel = error as? ChannelError {
            switch channel {
            case .connectTimeout: self = .timeout
            case .ioOnClosedChannel, .alreadyClosed, .eof, .outputClosed, .inputClosed: self = .connect
            default: self = .other
            }
        } else if error is IOError {
            self = .connect  // a socket call failed: ECONNREFUSED, ECONNRESET, EHOSTUNREACH…
        } else if error is NIOConnectionError {
            self = .connect  // every address was tried and none connected
        } else {
            self = .other
        }
    }

    /// The kind of an upstream answer with `status`, or nil when the status is not a failure.
    init?(status: UInt) {
        switch status {
        case 200, 204, 404, 410: return nil
        case 500 ..< 600: self = .status5xx
        default: self = .other
        }
    }
}
