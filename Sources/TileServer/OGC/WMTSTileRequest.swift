/// The parameters of a `GetTile`, unchecked.
public struct WMTSTileRequest: Sendable, Equatable {
    /// How the client names the format.
    public enum Format: Sendable, Equatable {
        /// KVP `FORMAT`: a MIME type.
        case mediaType(String)
        /// RESTful: the URL's extension.
        case fileExtension(String)
    }

    /// `LAYER`: a layer name.
    public var layer: String
    /// `STYLE`: `default` (or empty).
    public var style: String
    /// `FORMAT`, or the RESTful URL's extension.
    public var format: Format
    /// `TILEMATRIXSET`.
    public var tileMatrixSet: String
    /// `TILEMATRIX`: the zoom, as text.
    public var tileMatrix: String
    /// `TILEROW`: y, as text.
    public var tileRow: String
    /// `TILECOL`: x, as text.
    public var tileCol: String
}
