/// Escaping for text placed into XML documents (WMTS capabilities, OWS exception reports).
enum XMLText {
    /// `text` made safe for element content and quoted attribute values: the five markup
    /// characters escaped, and control characters XML 1.0 forbids (§2.2) dropped.
    static func escape(_ text: String) -> String {
        let allowed = text.unicodeScalars.allSatisfy { $0.value >= 0x20 || $0 == "\t" || $0 == "\n" || $0 == "\r" }
        guard allowed else {
            let kept = text.unicodeScalars.filter { $0.value >= 0x20 || $0 == "\t" || $0 == "\n" || $0 == "\r" }
            return HTML.escape(String(String.UnicodeScalarView(kept)))
        }
        return HTML.escape(text)
    }
}
