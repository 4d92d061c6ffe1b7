import Logging
import Synchronization
import TileHTTP

/// What every part of the service shares: the state it serves now (a reload swaps in another),
/// the tile pipeline and the worker pool; and the one place an error becomes an answer
/// (`errorAnswer`). Immutable but for the state's swap.
final class ServiceCore: Sendable {
    /// The frozen settings and layers served now. A tile request reads it once (its plan) and
    /// finishes on it; other routes read it where they need it.
    var state: ServiceState { current.withLock { $0 } }
    let current: Mutex<ServiceState>
    let logger: Logger
    let pipeline: TilePipeline
    /// Runs what may block, off the event loops.
    let workers: WorkerPool
    /// Refuses cold work while the workers or render threads are far behind.
    let shedding = LoadShedding()

    init(state: ServiceState, logger: Logger, pipeline: TilePipeline, workers: WorkerPool) {
        current = Mutex(state)
        self.logger = logger
        self.pipeline = pipeline
        self.workers = workers
    }
}

/// A part of the service that answers some routes (`TileEndpoint`, `PageEndpoint`…), with the
/// core's state, pipeline and error answers at hand.
protocol ServiceEndpoint: Sendable {
    var core: ServiceCore { get }
}

extension ServiceEndpoint {
    var state: ServiceState { core.state }
    var pipeline: TilePipeline { core.pipeline }
    var workers: WorkerPool { core.workers }
    var logger: Logger { core.logger }

    func errorAnswer(_ error: ServiceError, to request: HTTPRequest) -> HTTPResponse {
        core.errorAnswer(error, to: request)
    }

    func errorAnswer(_ error: ServiceError, to request: HTTPRequest, cors: CORSPolicy) -> HTTPResponse {
        core.errorAnswer(error, to: request, cors: cors)
    }

    func jsonAnswer(_ value: JSONValue, to request: HTTPRequest) -> HTTPResponse { core.jsonAnswer(value, to: request) }

    func documentAnswer(_ text: String, contentType: String, to request: HTTPRequest) -> HTTPResponse {
        core.documentAnswer(text, contentType: contentType, to: request)
    }

    func baseURL(for request: HTTPRequest) -> String { core.baseURL(for: request) }

    func addCORS(to headers: inout HTTPHeaders, for request: HTTPRequest) { core.addCORS(to: &headers, for: request) }
}
