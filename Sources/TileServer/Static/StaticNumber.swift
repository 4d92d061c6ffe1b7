/// Numbers in `/static` paths and queries: plain decimals (`-123.11`, `5`, `2.5e1`), never `nan`,
/// `inf` or hex floats, which `Double(_:)` would take.
enum StaticNumber {
    /// `text` as a finite number; `name` is what the error calls it ("zoom", "bearing", …).
    static func parse(_ text: Substring, name: String) -> Result<Double, StaticMapError> {
        guard isDecimal(text.utf8), let value = Double(text) else {
            return .failure(.notANumber(name: name, text: String(text)))
        }
        guard value.isFinite else { return .failure(.notFinite(name: name)) }
        return .success(value)
    }

    /// Comma-separated numbers named in order by `names` (extra names may be left out, down to
    /// `required`); `list` names the whole list in errors.
    static func parseList(_ text: Substring, names: [String], required: Int, list: String,
                          expected: String) -> Result<[Double], StaticMapError> {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false)
        guard parts.count >= required, parts.count <= names.count else {
            return .failure(.wrongCount(name: list, text: String(text), expected: expected))
        }
        var values: [Double] = []
        for (part, name) in zip(parts, names) {
            switch parse(part, name: name) {
            case .success(let value): values.append(value)
            case .failure(let error): return .failure(error)
            }
        }
        return .success(values)
    }

    /// `[+-]digits[.digits][e[+-]digits]`, with digits on at least one side of the point.
    static func isDecimal(_ bytes: Substring.UTF8View) -> Bool {
        var index = bytes.startIndex
        func digits() -> Int {
            var count = 0
            while index < bytes.endIndex, bytes[index] >= UInt8(ascii: "0"), bytes[index] <= UInt8(ascii: "9") {
                count += 1
                bytes.formIndex(after: &index)
            }
            return count
        }
        func skip(_ characters: String) -> Bool {
            guard index < bytes.endIndex, characters.utf8.contains(bytes[index]) else { return false }
            bytes.formIndex(after: &index)
            return true
        }
        _ = skip("+-")
        var mantissa = digits()
        if skip(".") { mantissa += digits() }
        guard mantissa > 0 else { return false }
        if skip("eE") {
            _ = skip("+-")
            guard digits() > 0 else { return false }
        }
        return index == bytes.endIndex
    }
}
