/// A strict parser of the Prometheus text exposition format 0.0.4, for tests: every line must
/// be `# HELP`, `# TYPE` or a sample; names, labels and values must be well formed; a family's
/// TYPE comes before its samples, once; histogram buckets are cumulative and end at +Inf.
struct PrometheusExposition {
    struct Sample: Equatable {
        var name: String
        var labels: [String: String]
        var value: Double
    }

    struct ParseError: Error, CustomStringConvertible {
        var line: Int
        var text: String
        var reason: String
        var description: String { "line \(line): \(reason): \(text)" }
    }

    private(set) var types: [String: String] = [:]
    private(set) var help: [String: String] = [:]
    private(set) var samples: [Sample] = []

    static let metricTypes: Set<String> = ["counter", "gauge", "histogram", "summary", "untyped"]

    init(_ text: String) throws {
        guard text.isEmpty || text.hasSuffix("\n") else {
            throw ParseError(line: 0, text: "", reason: "the exposition must end with a newline")
        }
        var seriesSeen = Set<String>()
        var familiesWithSamples = Set<String>()
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).dropLast().enumerated() {
            let number = index + 1
            func fail(_ reason: String) -> ParseError { ParseError(line: number, text: String(line), reason: reason) }
            if line.hasPrefix("#") {
                let parts = line.split(separator: " ", maxSplits: 3, omittingEmptySubsequences: false)
                guard parts.count >= 3, parts[0] == "#", parts[1] == "HELP" || parts[1] == "TYPE" else {
                    throw fail("a comment that is neither # HELP nor # TYPE")
                }
                let name = String(parts[2])
                guard Self.isMetricName(name) else { throw fail("bad metric name") }
                if parts[1] == "TYPE" {
                    guard parts.count == 4, Self.metricTypes.contains(String(parts[3])) else { throw fail("bad type") }
                    guard types[name] == nil else { throw fail("second TYPE for \(name)") }
                    guard !familiesWithSamples.contains(name) else { throw fail("TYPE after samples of \(name)") }
                    types[name] = String(parts[3])
                } else {
                    guard help[name] == nil else { throw fail("second HELP for \(name)") }
                    let text = parts.count == 4 ? String(parts[3]) : ""
                    guard Self.isValidHelp(text) else { throw fail("bad escape in help text") }
                    help[name] = text
                }
                continue
            }
            guard let sample = Self.parseSample(line) else { throw fail("not a valid sample line") }
            let family = family(of: sample.name)
            guard types[family] != nil else { throw fail("sample before the TYPE of \(family)") }
            familiesWithSamples.insert(family)
            let series = sample.name + "{" + sample.labels.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
                .joined(separator: ",") + "}"
            guard seriesSeen.insert(series).inserted else { throw fail("duplicate series") }
            if types[family] == "counter" || types[family] == "histogram" {
                guard sample.value >= 0 else { throw fail("negative \(types[family]!) value") }
            }
            samples.append(sample)
        }
        try checkHistograms()
    }

    /// The family a sample belongs to (`x_bucket`, `x_sum`, `x_count` of a histogram `x`).
    func family(of name: String) -> String {
        for suffix in ["_bucket", "_sum", "_count"] where name.hasSuffix(suffix) {
            let base = String(name.dropLast(suffix.count))
            if types[base] == "histogram" || types[base] == "summary" { return base }
        }
        return name
    }

    /// The value of the series `name` with exactly `labels`.
    func value(_ name: String, _ labels: [String: String] = [:]) -> Double? {
        samples.first { $0.name == name && $0.labels == labels }?.value
    }

    /// The sum over the series of `name` whose labels include `matching`.
    func sum(_ name: String, matching: [String: String] = [:]) -> Double {
        samples.filter { sample in
            sample.name == name && matching.allSatisfy { sample.labels[$0.key] == $0.value }
        }.reduce(0) { $0 + $1.value }
    }

    private func checkHistograms() throws {
        for (name, type) in types where type == "histogram" {
            var byLabels: [[String: String]: [(Double, Double)]] = [:]
            for sample in samples where sample.name == name + "_bucket" {
                guard let le = sample.labels["le"], let bound = Self.number(Substring(le)) else {
                    throw ParseError(line: 0, text: name, reason: "bucket without a numeric le")
                }
                var rest = sample.labels
                rest["le"] = nil
                byLabels[rest, default: []].append((bound, sample.value))
            }
            for (labels, buckets) in byLabels {
                let sorted = buckets.sorted { $0.0 < $1.0 }
                guard sorted.last?.0 == .infinity else {
                    throw ParseError(line: 0, text: name, reason: "histogram without a +Inf bucket")
                }
                for (lower, upper) in zip(sorted, sorted.dropFirst()) where upper.1 < lower.1 {
                    throw ParseError(line: 0, text: name, reason: "buckets are not cumulative")
                }
                guard value(name + "_count", labels) == sorted.last?.1, value(name + "_sum", labels) != nil else {
                    throw ParseError(line: 0, text: name, reason: "_count differs from the +Inf bucket, or no _sum")
                }
            }
        }
    }

    // MARK: Lexical rules

    /// `[a-zA-Z_:][a-zA-Z0-9_:]*`
    static func isMetricName<S: StringProtocol>(_ text: S) -> Bool {
        guard let first = text.unicodeScalars.first, isNameStart(first) || first == ":" else { return false }
        return text.unicodeScalars.allSatisfy { isNameStart($0) || $0 == ":" || ("0" ... "9").contains($0) }
    }

    /// `[a-zA-Z_][a-zA-Z0-9_]*`
    static func isLabelName<S: StringProtocol>(_ text: S) -> Bool {
        guard let first = text.unicodeScalars.first, isNameStart(first) else { return false }
        return text.unicodeScalars.allSatisfy { isNameStart($0) || ("0" ... "9").contains($0) }
    }

    private static func isNameStart(_ scalar: Unicode.Scalar) -> Bool {
        ("a" ... "z").contains(scalar) || ("A" ... "Z").contains(scalar) || scalar == "_"
    }

    /// Help text: only `\\` and `\n` escapes.
    static func isValidHelp(_ text: String) -> Bool {
        var escaping = false
        for character in text {
            if escaping {
                guard character == "\\" || character == "n" else { return false }
                escaping = false
            } else if character == "\\" {
                escaping = true
            }
        }
        return !escaping
    }

    /// A Go `ParseFloat` number, `NaN`, `+Inf` or `-Inf`.
    static func number(_ text: Substring) -> Double? {
        switch text {
        case "NaN": return .nan
        case "+Inf", "Inf": return .infinity
        case "-Inf": return -.infinity
        default:
            guard !text.isEmpty, text.unicodeScalars.allSatisfy({ "0123456789.eE+-".unicodeScalars.contains($0) }) else {
                return nil
            }
            return Double(text)
        }
    }

    /// `name{label="value",…} value [timestamp]`
    static func parseSample(_ line: Substring) -> Sample? {
        var rest = line[...]
        let nameEnd = rest.firstIndex { $0 == "{" || $0 == " " } ?? rest.endIndex
        let name = String(rest[..<nameEnd])
        guard isMetricName(name) else { return nil }
        rest = rest[nameEnd...]
        var labels: [String: String] = [:]
        if rest.first == "{" {
            rest = rest.dropFirst()
            while rest.first != "}" {
                guard let equals = rest.firstIndex(of: "=") else { return nil }
                let label = String(rest[..<equals])
                guard isLabelName(label), labels[label] == nil else { return nil }
                rest = rest[rest.index(after: equals)...]
                guard rest.first == "\"" else { return nil }
                rest = rest.dropFirst()
                var value = ""
                var closed = false
                while let character = rest.first {
                    rest = rest.dropFirst()
                    if character == "\"" { closed = true; break }
                    if character == "\\" {
                        guard let escaped = rest.first else { return nil }
                        rest = rest.dropFirst()
                        switch escaped {
                        case "\\": value.append("\\")
                        case "\"": value.append("\"")
                        case "n": value.append("\n")
                        default: return nil
                        }
                    } else {
                        value.append(character)
                    }
                }
                guard closed else { return nil }
                labels[label] = value
                if rest.first == "," { rest = rest.dropFirst() } else if rest.first != "}" { return nil }
            }
            rest = rest.dropFirst()
        }
        guard rest.first == " " else { return nil }
        let fields = rest.dropFirst().split(separator: " ", omittingEmptySubsequences: false)
        guard fields.count == 1 || fields.count == 2, let value = number(fields[0]) else { return nil }
        if fields.count == 2 {
            guard Int64(fields[1]) != nil else { return nil }
        }
        return Sample(name: name, labels: labels, value: value)
    }
}
