/// Where a deferred answer goes: the connection and the number of the request it answers.
///
/// A responder's completion captures this one object and nothing else, and a closure that
/// captures a single object uses it as its context: a request answered at once allocates no
/// closure. The connection gives the same object to its next request unless a completion still
/// holds it (`HTTPConnection.answerAddress(for:)`).
///
/// `@unchecked Sendable`: `id` is set on the connection's loop, only while no completion holds
/// this object, and read there when the answer arrives (`HTTPConnection.answerArrived`).
final class HTTPAnswerAddress: @unchecked Sendable {
    /// Strong, as the completion's capture of the connection was: a connection waiting for an
    /// answer lives until it arrives. The connection lets go of its spare address when it
    /// closes, which ends the cycle.
    let connection: HTTPConnection
    /// The request the answer is for.
    var id: UInt64

    init(connection: HTTPConnection, id: UInt64) {
        self.connection = connection
        self.id = id
    }
}
