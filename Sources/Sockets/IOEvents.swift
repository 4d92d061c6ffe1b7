/// Readiness of a descriptor, as an event loop reports it. The values are epoll's, so the
/// epoll loop passes them through; the Dispatch loop reports only `readable` and `writable`
/// (a hang-up or an error then shows as a read of end-of-file or a failed call).
public struct IOEvents: OptionSet, Sendable, Hashable {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }
    /// Readable (or end of file).
    public static let readable = IOEvents(rawValue: 0x001)
    /// Writable.
    public static let writable = IOEvents(rawValue: 0x004)
    /// An error is pending on the descriptor; always reported.
    public static let error = IOEvents(rawValue: 0x008)
    /// Both directions are shut down, or the connection was reset; always reported.
    public static let hangUp = IOEvents(rawValue: 0x010)
    /// The peer shut down its sending side.
    public static let readHangUp = IOEvents(rawValue: 0x2000)
}
