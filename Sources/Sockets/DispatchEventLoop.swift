// The Dispatch transport: a serial queue per loop, with a DispatchSource read source and a
// write source per descriptor, resumed and suspended as the handler's interest changes. It
// uses no Linux-only call, so it is the transport on Darwin.

import Dispatch
import Synchronization

/// An event loop on one serial Dispatch queue.
///
/// `@unchecked Sendable`: `watches` is touched only on `queue` (asserted by `inLoop`); the
/// stop flag is atomic.
public final class DispatchEventLoop: IOEventLoop, @unchecked Sendable {
    public let name: String
    /// The queue every handler call, task and timer runs on.
    public let queue: DispatchQueue
    private var watches: [Int32: Watch] = [:]
    private let stopRequested = Atomic<Bool>(false)
    private static let identity = DispatchSpecificKey<UInt>()
    /// The value this loop's queue holds under `identity`.
    private let identityValue: UInt

    /// The two sources of one descriptor and whether each is running.
    private final class Watch {
        let read: any DispatchSourceRead
        let write: any DispatchSourceWrite
        var reading = false
        var writing = false
        /// Sources still to be cancelled before the descriptor may close.
        var live = 2
        var closeWhenCancelled = false

        init(read: any DispatchSourceRead, write: any DispatchSourceWrite) {
            self.read = read
            self.write = write
        }
    }

    /// A loop on a new serial queue.
    public init(name: String) {
        self.name = name
        queue = DispatchQueue(label: name)
        identityValue = UInt(bitPattern: ObjectIdentifier(queue).hashValue)
        queue.setSpecific(key: Self.identity, value: identityValue)
    }

    public var inLoop: Bool {
        DispatchQueue.getSpecific(key: Self.identity) == identityValue
    }

    public func execute(_ task: @escaping @Sendable () -> Void) {
        guard !stopRequested.load(ordering: .relaxed) else { return }
        queue.async { [self] in
            if !stopRequested.load(ordering: .relaxed) { task() }
        }
    }

    public func schedule(after seconds: Double, _ task: @escaping () -> Void) {
        precondition(inLoop, "DispatchEventLoop.schedule called off its queue")
        let box = UncheckedTask(task)
        queue.asyncAfter(deadline: .now() + max(0, seconds)) { [self] in
            if !stopRequested.load(ordering: .relaxed) { box.task() }
        }
    }

    public func register(_ descriptor: Int32, events: IOEvents, handler: IOEventHandler) throws(SocketError) {
        precondition(inLoop, "DispatchEventLoop.register called off its queue")
        let handlerBox = UncheckedHandler(handler)
        let read = DispatchSource.makeReadSource(fileDescriptor: descriptor, queue: queue)
        let write = DispatchSource.makeWriteSource(fileDescriptor: descriptor, queue: queue)
        read.setEventHandler { handlerBox.handler?.handleEvents(.readable) }
        write.setEventHandler { handlerBox.handler?.handleEvents(.writable) }
        let watch = Watch(read: read, write: write)
        let cancelled: @Sendable () -> Void = { [self] in sourceCancelled(descriptor) }
        read.setCancelHandler(handler: cancelled)
        write.setCancelHandler(handler: cancelled)
        watches[descriptor] = watch
        apply(events, to: watch)
    }

    public func modify(_ descriptor: Int32, events: IOEvents) {
        precondition(inLoop, "DispatchEventLoop.modify called off its queue")
        guard let watch = watches[descriptor] else { return }
        apply(events, to: watch)
    }

    public func close(_ descriptor: Int32) {
        precondition(inLoop, "DispatchEventLoop.close called off its queue")
        guard let watch = watches[descriptor] else {
            _ = systemClose(descriptor)
            return
        }
        watch.closeWhenCancelled = true
        cancel(watch)
    }

    public func stop(completion: @escaping @Sendable () -> Void) {
        stopRequested.store(true, ordering: .relaxed)
        queue.async { [self] in
            // Sources still registered are cancelled (their owners close the descriptors).
            for watch in watches.values { cancel(watch) }
            completion()
        }
    }

    /// Resumes or suspends each source so that it runs exactly when `events` asks for it.
    private func apply(_ events: IOEvents, to watch: Watch) {
        let wantsRead = !events.isDisjoint(with: [.readable, .readHangUp])
        if wantsRead != watch.reading {
            watch.reading = wantsRead
            if wantsRead { watch.read.resume() } else { watch.read.suspend() }
        }
        let wantsWrite = events.contains(.writable)
        if wantsWrite != watch.writing {
            watch.writing = wantsWrite
            if wantsWrite { watch.write.resume() } else { watch.write.suspend() }
        }
    }

    /// Cancels both sources; a suspended source runs its cancel handler only once resumed.
    private func cancel(_ watch: Watch) {
        guard !watch.read.isCancelled else { return }
        watch.read.cancel()
        watch.write.cancel()
        if !watch.reading { watch.read.resume() }
        if !watch.writing { watch.write.resume() }
        watch.reading = true
        watch.writing = true
    }

    /// A source's cancel handler: once both are cancelled, the descriptor is free to close.
    private func sourceCancelled(_ descriptor: Int32) {
        guard let watch = watches[descriptor] else { return }
        watch.live -= 1
        guard watch.live == 0 else { return }
        watches[descriptor] = nil
        if watch.closeWhenCancelled { _ = systemClose(descriptor) }
    }
}

/// A handler held weakly for a source's event handler (the loop holds nothing of a closed
/// connection). `@unchecked Sendable`: used only on the loop's queue.
private final class UncheckedHandler: @unchecked Sendable {
    weak var handler: IOEventHandler?
    init(_ handler: IOEventHandler) { self.handler = handler }
}

/// A timer task that runs on the loop's queue. `@unchecked Sendable`: it runs only there.
private final class UncheckedTask: @unchecked Sendable {
    let task: () -> Void
    init(_ task: @escaping () -> Void) { self.task = task }
}
