/// Reads and writes sabre's network traces (Spiteri, Sitaraman, Sparacio, MMSys 2018).
///
/// Format: a JSON array of periods `{"duration_ms": d, "bandwidth_kbps": b, "latency_ms": l}`, played in order
/// and looping at the end. Each period becomes one piece: d > 0 ms at b ≥ 0 kbit/s (zero allowed) with latency
/// l ≥ 0 ms (sabre's per-request delay; optional, but all periods or none must have it). Called by
/// ``TraceReader`` and ``TraceWriter``.
///
/// A small dedicated scanner reads this flat format (no dependency on a general JSON parser). Errors name the
/// file and the JSON path of the offending value (`$[17].bandwidth_kbps`: wrong type, out of range, unknown or
/// missing key) with its line, or the line and column of a syntax error. Loss rates are dropped when writing.
struct SabreTrace {
    /// The keys a period may have.
    static let keys = ["duration_ms", "bandwidth_kbps", "latency_ms"]

    /// Reads the file at `path` (whole, with ``InputFile``'s size limit).
    static func read(path: String) throws -> Trace {
        var scanner = Scanner(bytes: try InputFile.readAll(path), path: path)
        var starts: [Double] = []
        var rates: [Double] = []
        var latencies: [Double] = []
        var cumulativeMs = 0.0
        scanner.skipSpace()
        guard scanner.peek != nil else { throw InputError.atLine(path, 1, "empty trace: no JSON array of periods") }
        guard scanner.peek == UInt8(ascii: "[") else {
            throw scanner.valueError("$", "expected an array of periods [{duration_ms, bandwidth_kbps, latency_ms}, …]")
        }
        scanner.position += 1
        scanner.skipSpace()
        var more = scanner.peek != UInt8(ascii: "]")
        if !more { scanner.position += 1 }
        while more {
            let i = starts.count
            let path = "$[\(i)]"
            scanner.skipSpace()
            guard scanner.peek == UInt8(ascii: "{") else { throw scanner.valueError(path, "expected a period object") }
            scanner.position += 1
            var values: [String: Double] = [:]
            scanner.skipSpace()
            if scanner.peek == UInt8(ascii: "}") {
                scanner.position += 1
            } else {
                while true {
                    scanner.skipSpace()
                    let key = try scanner.string(in: path)
                    let keyPath = "\(path).\(key)"
                    guard keys.contains(key) else {
                        throw scanner.error(
                            at: keyPath, "unknown key (expected duration_ms, bandwidth_kbps, latency_ms)")
                    }
                    guard values[key] == nil else { throw scanner.error(at: keyPath, "repeated key") }
                    scanner.skipSpace()
                    try scanner.expect(":", in: keyPath)
                    scanner.skipSpace()
                    values[key] = try scanner.number(at: keyPath)
                    scanner.skipSpace()
                    if try scanner.endOfList(closing: "}", in: path) { break }
                }
            }
            guard let duration = values["duration_ms"] else { throw scanner.error(at: path, "missing duration_ms") }
            guard let kbps = values["bandwidth_kbps"] else { throw scanner.error(at: path, "missing bandwidth_kbps") }
            guard duration > 0 else { throw scanner.error(at: "\(path).duration_ms", "must be > 0, not \(duration)") }
            guard kbps >= 0 else { throw scanner.error(at: "\(path).bandwidth_kbps", "must be ≥ 0, not \(kbps)") }
            guard kbps * 1000 <= Trace.maximumRateBps else {
                throw scanner.error(at: "\(path).bandwidth_kbps", Trace.tooFastMessage(kbps * 1000))
            }
            guard Trace.isReadableSlowRate(kbps * 1000) else {
                throw scanner.error(at: "\(path).bandwidth_kbps", Trace.tooSlowMessage(kbps * 1000))
            }
            if let latency = values["latency_ms"] {
                guard latency >= 0 else { throw scanner.error(at: "\(path).latency_ms", "must be ≥ 0, not \(latency)") }
                guard latencies.count == i else {
                    throw scanner.error(at: "\(path).latency_ms", "present here but missing in earlier periods")
                }
                latencies.append(latency / 1000)
            } else if !latencies.isEmpty {
                throw scanner.error(at: path, "missing latency_ms (earlier periods have it)")
            }
            guard (cumulativeMs + duration) / 1000 <= Trace.maximumDurationSeconds else {
                throw scanner.error(
                    at: "\(path).duration_ms",
                    Trace.tooLongMessage("the end of this period", (cumulativeMs + duration) / 1000))
            }
            starts.append(cumulativeMs / 1000)
            rates.append(kbps * 1000)
            cumulativeMs += duration
            scanner.skipSpace()
            more = !(try scanner.endOfList(closing: "]", in: "$"))
        }
        scanner.skipSpace()
        guard scanner.position == scanner.bytes.count else {
            throw scanner.syntaxError("unexpected text after the array of periods")
        }
        guard !starts.isEmpty else { throw scanner.error(at: "$", "the array has no periods") }
        var trace = Trace(
            name: InputFile.fileName(of: path), starts: starts, ratesBps: rates, duration: cumulativeMs / 1000,
            latencySeconds: latencies.isEmpty ? nil : latencies)
        trace.places = TracePlaces(file: path, kind: .arrayElements)
        return trace
    }

    /// The sabre JSON text of `trace`, one period per line.
    static func write(_ trace: Trace) -> [UInt8] {
        var text = "[\n"
        for i in 0..<trace.pieceCount {
            let ms = (trace.end(ofPiece: i) - trace.starts[i]) * 1000
            text += "    {\"duration_ms\": \(TraceText.format(ms)), "
            text += "\"bandwidth_kbps\": \(TraceText.format(trace.ratesBps[i] / 1000))"
            if let latency = trace.latencySeconds?[i] {
                text += ", \"latency_ms\": \(TraceText.format(latency * 1000))"
            }
            text += i + 1 < trace.pieceCount ? "},\n" : "}\n"
        }
        text += "]\n"
        return Array(text.utf8)
    }

    /// A cursor over the JSON bytes that reports errors with the file and a JSON path or line and column.
    struct Scanner {
        let bytes: [UInt8]
        let path: String
        var position = 0

        init(bytes: [UInt8], path: String) {
            self.bytes = bytes
            self.path = path
            if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { position = 3 }
        }

        var peek: UInt8? { position < bytes.count ? bytes[position] : nil }

        mutating func skipSpace() {
            while let byte = peek, byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 { position += 1 }
        }

        /// An error at a JSON path; the message ends with the line the scanner is on, so a user can find the
        /// value in a long file.
        func error(at jsonPath: String, _ message: String) -> InputError {
            InputError(file: path, location: jsonPath, "\(message) (line \(currentLine))")
        }

        /// The 1-based line of the scanner's position.
        var currentLine: Int {
            var line = 1
            for byte in bytes[0..<min(position, bytes.count)] where byte == 0x0A { line += 1 }
            return line
        }

        /// An error at the current line and column.
        func syntaxError(_ message: String) -> InputError {
            var line = 1
            var column = 1
            for byte in bytes[0..<min(position, bytes.count)] {
                if byte == 0x0A {
                    line += 1
                    column = 1
                } else {
                    column += 1
                }
            }
            let found = peek.map { "‘\(Character(Unicode.Scalar($0)))’" } ?? "the end of the file"
            return InputError(file: path, location: "line \(line), column \(column)", "\(message), found \(found)")
        }

        /// A type error at `jsonPath`, naming the kind of value found there.
        func valueError(_ jsonPath: String, _ message: String) -> InputError {
            let kinds: [UInt8: String] = [
                UInt8(ascii: "\""): "a string", UInt8(ascii: "t"): "a boolean", UInt8(ascii: "f"): "a boolean",
                UInt8(ascii: "n"): "null", UInt8(ascii: "{"): "an object", UInt8(ascii: "["): "an array",
            ]
            guard let byte = peek else { return error(at: jsonPath, "\(message), found the end of the file") }
            if let kind = kinds[byte] { return error(at: jsonPath, "\(message), found \(kind)") }
            if byte == UInt8(ascii: "-") || (byte >= 0x30 && byte <= 0x39) {
                return error(at: jsonPath, "\(message), found a number")
            }
            return syntaxError("\(message) at \(jsonPath)")
        }

        mutating func expect(_ character: Character, in jsonPath: String) throws {
            guard peek == character.asciiValue else { throw syntaxError("expected ‘\(character)’ in \(jsonPath)") }
            position += 1
        }

        /// After a member or element: consumes `,` (returns false, more follow) or `closing` (returns true).
        mutating func endOfList(closing: Character, in jsonPath: String) throws -> Bool {
            if peek == UInt8(ascii: ",") {
                position += 1
                return false
            }
            guard peek == closing.asciiValue else { throw syntaxError("expected ‘,’ or ‘\(closing)’ in \(jsonPath)") }
            position += 1
            return true
        }

        /// A string (object key); escapes are kept as written, which is enough to compare against plain keys.
        mutating func string(in jsonPath: String) throws -> String {
            guard peek == UInt8(ascii: "\"") else { throw syntaxError("expected a quoted key in \(jsonPath)") }
            let start = position + 1
            position += 1
            while let byte = peek, byte != UInt8(ascii: "\"") {
                position += byte == UInt8(ascii: "\\") ? 2 : 1
            }
            guard position < bytes.count else { throw syntaxError("unterminated string in \(jsonPath)") }
            position += 1
            return String(decoding: bytes[start..<(position - 1)], as: UTF8.self)
        }

        /// A JSON number at `jsonPath`; any other kind of value is a type error naming the path.
        mutating func number(at jsonPath: String) throws -> Double {
            let start = position
            while let byte = peek,
                (byte >= 0x30 && byte <= 0x39) || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "+")
                    || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E")
            {
                position += 1
            }
            guard position > start else { throw valueError(jsonPath, "expected a number") }
            guard let value = Double(String(decoding: bytes[start..<position], as: UTF8.self)) else {
                position = start
                throw syntaxError("malformed number at \(jsonPath)")
            }
            guard value.isFinite else {
                position = start
                throw syntaxError("number out of range at \(jsonPath)")
            }
            return value
        }
    }
}

extension SabreTrace: TraceFileFormat {
    var name: String { "sabre" }
    var appearance: String { "a JSON array (sabre)" }

    /// A line starting with `[` or `{`.
    func recognises(firstLine line: ArraySlice<UInt8>) -> Bool {
        line.first == UInt8(ascii: "[") || line.first == UInt8(ascii: "{")
    }

    func read(path: String, binMs: Int) throws -> Trace { try Self.read(path: path) }

    func write(_ trace: Trace) throws -> [UInt8] { Self.write(trace) }
}
