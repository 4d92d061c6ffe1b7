import TileHTTP

/// A WMTS request the service refuses, answered as an OWS 1.1 `ExceptionReport`
/// (OGC 06-121r3 §8; codes and statuses from WMTS 1.0 Table 28).
struct WMTSException: Error, Sendable, Equatable {
    /// An OWS exception code.
    struct Code: Sendable, Equatable {
        /// `exceptionCode`.
        let name: String
        /// The HTTP status it is answered with.
        let status: HTTPStatus

        static let missingParameterValue = Code(name: "MissingParameterValue", status: .badRequest)
        static let invalidParameterValue = Code(name: "InvalidParameterValue", status: .badRequest)
        static let tileOutOfRange = Code(name: "TileOutOfRange", status: .badRequest)
        static let operationNotSupported = Code(name: "OperationNotSupported", status: .notImplemented)
    }

    let code: Code
    /// The parameter at fault (`locator`), as the client named it.
    let locator: String?
    /// What was wrong, for a person.
    let text: String

    static func missing(_ parameter: String) -> WMTSException {
        WMTSException(code: .missingParameterValue, locator: parameter, text: "parameter \(parameter) is missing")
    }

    static func invalid(_ parameter: String, _ text: String) -> WMTSException {
        WMTSException(code: .invalidParameterValue, locator: parameter, text: text)
    }

    /// The `ExceptionReport` document.
    var report: String {
        let locatorAttribute = locator.map { " locator=\"\(XMLText.escape($0))\"" } ?? ""
        return """
        <?xml version="1.0" encoding="UTF-8"?>
        <ows:ExceptionReport xmlns:ows="http://www.opengis.net/ows/1.1" \
        xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" \
        xsi:schemaLocation="http://www.opengis.net/ows/1.1 http://schemas.opengis.net/ows/1.1.0/owsExceptionReport.xsd" \
        version="1.0.0" xml:lang="en">
        <ows:Exception exceptionCode="\(code.name)"\(locatorAttribute)>
        <ows:ExceptionText>\(XMLText.escape(text))</ows:ExceptionText>
        </ows:Exception>
        </ows:ExceptionReport>

        """
    }
}
