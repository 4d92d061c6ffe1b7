internal import CGDAL

/// The store's answer to the last remote read on this thread, in words an operator knows
/// (GDAL's VSI error number → the HTTP status the store gave), with what GDAL said of it.
enum StoreAnswer {
    /// "404 Not Found: …", "403 Forbidden: …", or what GDAL said; `fallback` when nothing was said.
    static func describe(default fallback: String) -> String {
        var said = GDALMessages.take()
        if let vsi = VSIGetLastErrorMsg().map({ SecretRedaction.redact(String(cString: $0)) }), !vsi.isEmpty, !said.contains(vsi) {
            said += said.isEmpty ? vsi : "; " + vsi
        }
        let status: String?
        switch VSIGetLastErrorNo() {
        case VSIE_AWSObjectNotFound, VSIE_AWSBucketNotFound: status = "404 Not Found"
        case VSIE_AWSAccessDenied, VSIE_AWSInvalidCredentials, VSIE_AWSSignatureDoesNotMatch: status = "403 Forbidden"
        default: status = nil
        }
        VSIErrorReset()
        let text = said.isEmpty ? fallback : said
        guard let status, !text.contains(status.prefix(3)) else { return text }
        return status + ": " + text
    }
}
