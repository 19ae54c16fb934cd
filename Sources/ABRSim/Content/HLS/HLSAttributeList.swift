/// An HLS attribute list (RFC 8216 §4.2): `NAME=VALUE` pairs separated by commas, where a value is a decimal
/// integer or float, a `WIDTHxHEIGHT` resolution, an enumerated string, or a quoted string that may contain
/// commas (`CODECS="avc1.640028,mp4a.40.2"`).
///
/// Parsed by ``HLSMasterPlaylist`` for `#EXT-X-STREAM-INF`; errors are ``InputError``s at the playlist's line.
struct HLSAttributeList {
    /// Values by attribute name, quotes removed.
    let values: [String: String]

    /// Parses `text` (after the tag's colon) from `file` at `line`.
    init(_ text: String, file: String, line: Int) throws {
        var values: [String: String] = [:]
        var rest = Substring(text)
        while !rest.isEmpty {
            guard let equals = rest.firstIndex(of: "=") else {
                throw InputError(.line(file, line), .expected("NAME=VALUE", found: "‘\(rest)’"))
            }
            let name = rest[..<equals].trimmingBlanks()
            guard !name.isEmpty else { throw InputError(.line(file, line), .missing("attribute name before ‘=’")) }
            rest = rest[rest.index(after: equals)...]
            let value: Substring
            if rest.first == "\"" {
                let body = rest.dropFirst()
                guard let close = body.firstIndex(of: "\"") else {
                    throw InputError(
                        .line(file, line), .unpaired("attribute \(name)'s opening quote", missing: "its closing quote"))
                }
                value = body[..<close]
                rest = body[body.index(after: close)...]
            } else {
                let end = rest.firstIndex(of: ",") ?? rest.endIndex
                value = rest[..<end].trimmingBlanks()
                rest = rest[end...]
            }
            rest = rest.trimmingBlanks()
            if rest.first == "," {
                rest = rest.dropFirst()
            } else if !rest.isEmpty {
                throw InputError(.line(file, line), .expected("‘,’ after attribute \(name)", found: "‘\(rest)’"))
            }
            guard values[String(name)] == nil else {
                throw InputError(.line(file, line), .duplicate("\(name)", of: "attribute"))
            }
            values[String(name)] = String(value)
        }
        self.values = values
    }

    /// The value of `name`, if present.
    subscript(_ name: String) -> String? { values[name] }
}

extension Substring {
    /// Without leading and trailing spaces and tabs.
    func trimmingBlanks() -> Substring {
        var result = self
        while let first = result.first, first == " " || first == "\t" { result = result.dropFirst() }
        while let last = result.last, last == " " || last == "\t" { result = result.dropLast() }
        return result
    }
}
