/// Reads and writes sabre's network traces (Spiteri, Sitaraman, Sparacio, MMSys 2018).
///
/// Format: a JSON array of periods `{"duration_ms": d, "bandwidth_kbps": b, "latency_ms": l}`, played in order
/// and looping at the end. Each period becomes one piece: d > 0 ms at b ≥ 0 kbit/s (zero allowed) with latency
/// l ≥ 0 ms (sabre's per-request delay; optional, but all periods or none must have it). Called by
/// ``TraceReader`` and ``TraceWriter``.
///
/// The file is read by ``JSONParser`` (line and column for a syntax error) and decoded here: errors name the file
/// and the JSON path of the offending value (`$[17].bandwidth_kbps`: wrong type, out of range, unknown or missing
/// key) with its line. Loss rates are dropped when writing.
struct SabreTrace {
    /// The keys a period may have.
    static let keys = ["duration_ms", "bandwidth_kbps", "latency_ms"]

    /// Reads the file at `path` (whole, with ``InputFile``'s size limit).
    static func read(path: String) throws -> Trace {
        let bytes = try InputFile.readAll(path)
        let places = Places(bytes: bytes, file: path)
        let text = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? bytes[3...] : bytes[...]
        guard text.contains(where: { $0 != 0x20 && $0 != 0x0A && $0 != 0x0D && $0 != 0x09 }) else {
            throw InputError(.line(path, 1), .empty("trace", no: "JSON array of periods"))
        }
        var starts: [Double] = []
        var rates: [Double] = []
        var latencies: [Double] = []
        var cumulativeMs = 0.0
        // Periods are decoded as the parser reads them. An array of objects of numbers: anything nested deeper
        // is wrong, and stops the parser early. A period of the three keys is read as a record of numbers; any
        // other is decoded from its value, where a wrong type or an unknown key is named.
        func accept(_ i: Int, duration durationValue: Double?, kbps kbpsValue: Double?, latency latencyValue: Double?)
            throws
        {
            let at = JSONParser.PathStep.index(i)
            guard let duration = durationValue else { throw places.error([at], .missing("duration_ms")) }
            guard let kbps = kbpsValue else { throw places.error([at], .missing("bandwidth_kbps")) }
            guard duration > 0 else {
                throw places.error([at, .key("duration_ms")], .mustBe(nil, rule: "> 0", found: "\(duration)"))
            }
            guard kbps >= 0 else {
                throw places.error([at, .key("bandwidth_kbps")], .mustBe(nil, rule: "≥ 0", found: "\(kbps)"))
            }
            guard kbps * 1000 <= Trace.maximumRateBps else {
                throw places.error([at, .key("bandwidth_kbps")], Trace.tooFast(kbps * 1000))
            }
            guard Trace.isReadableSlowRate(kbps * 1000) else {
                throw places.error([at, .key("bandwidth_kbps")], Trace.tooSlow(kbps * 1000))
            }
            if let latency = latencyValue {
                guard latency >= 0 else {
                    throw places.error([at, .key("latency_ms")], .mustBe(nil, rule: "≥ 0", found: "\(latency)"))
                }
                guard latencies.count == i else {
                    throw places.error(
                        [at, .key("latency_ms")],
                        .disagrees("latency_ms", found: "present", other: "missing", in: "earlier periods"))
                }
                latencies.append(latency / 1000)
            } else if !latencies.isEmpty {
                throw places.error(
                    [at], .disagrees("latency_ms", found: "missing", other: "present", in: "earlier periods"))
            }
            guard (cumulativeMs + duration) / 1000 <= Trace.maximumDurationSeconds else {
                throw places.error(
                    [at, .key("duration_ms")],
                    Trace.tooLong("the end of this period", (cumulativeMs + duration) / 1000))
            }
            starts.append(cumulativeMs / 1000)
            rates.append(kbps * 1000)
            cumulativeMs += duration
        }
        let notArray = try JSONParser.parseRecords(
            bytes, file: path, keys: keys, maxDepth: 3,
            record: { i, values in
                try accept(i, duration: values[0], kbps: values[1], latency: values[2])
                return true
            }
        ) { i, element in
            let at = JSONParser.PathStep.index(i)
            guard case .object(let period) = element else {
                throw places.error([at], .expected("a period object", found: element.foundDescription))
            }
            for key in period.keys where !keys.contains(key) {
                throw places.error([at, .key(key)], .unknownKeys([JSONString.quoted(key)], known: keys))
            }
            func number(_ key: String) throws -> Double? {
                guard let value = period.values[key] else { return nil }
                guard case .number(let number) = value else {
                    throw places.error([at, .key(key)], .expected("a number", found: value.foundDescription))
                }
                return number
            }
            let durationValue = try number("duration_ms")
            let kbpsValue = try number("bandwidth_kbps")
            let latencyValue = try number("latency_ms")
            try accept(i, duration: durationValue, kbps: kbpsValue, latency: latencyValue)
        }
        if let root = notArray {
            throw places.error(
                [],
                .expected(
                    "an array of periods [{duration_ms, bandwidth_kbps, latency_ms}, …]", found: root.foundDescription))
        }
        guard !starts.isEmpty else { throw places.error([], .noneGiven("period", in: "the array")) }
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

    /// Errors at a JSON path of the file, each ending with the line and column of the value, so a user can find
    /// it in a long file.
    struct Places {
        let bytes: [UInt8]
        let file: String

        func error(_ steps: [JSONParser.PathStep], _ problem: InputProblem) -> InputError {
            let path = steps.reduce("$") { path, step in
                switch step {
                case .index(let index): JSONPath.index(path, index)
                case .key(let key): JSONPath.key(path, key)
                }
            }
            let place = InputPlace(file: file, position: InputPlace.Position(text: path))
            guard let line = JSONParser.location(of: steps, in: bytes) else { return InputError(place, problem) }
            return InputError(place, .located(problem, at: line))
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
