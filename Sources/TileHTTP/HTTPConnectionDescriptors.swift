/// What else in the process holds descriptors from the same open-file limit as the
/// connections (TileServer's kept tile files, `OpenFileBudget`), told as connections open and
/// close so that it holds fewer while they are many and more while they are few: descriptors
/// are shared as they are used, not split up front by `maxConnections`.
public protocol HTTPConnectionDescriptors: AnyObject, Sendable {
    /// `delta` connections were opened (positive) or closed (negative); called on the event
    /// loop that accepts (opened) or any loop (closed), so it must be cheap: an atomic add,
    /// and on an opening that leaves too few descriptors, closing files of its own.
    func connectionsChanged(by delta: Int)
}
