/// Reads and writes Pensieve's "cooked" traces (Mao, Netravali, Alizadeh, SIGCOMM 2017).
///
/// Format: lines `time_s<whitespace>throughput_Mbit/s`, times strictly increasing. Called by ``TraceReader``
/// and ``TraceWriter``.
///
/// Reading follows Pensieve's simulator: the interval (t[i−1], t[i]] runs at bw[i], the rate of the sample at
/// the interval's *end*, so the first line's throughput is never used. The trace starts at t[0] (shifted to 0)
/// and lasts t[last] − t[0]; at least two lines are needed. Blank lines are skipped. Errors name the line:
/// a field that is not a number, NaN or infinity, a negative throughput, a time not after the previous one
/// ("timestamps must increase"), a file with a single line.
///
/// Writing emits `0` with the first piece's rate, then each piece's end time with its rate, tab-separated,
/// in the shortest decimal that reads back exactly (rates in Mbit/s, so a round trip is exact up to the one
/// rounding of dividing by 10⁶). Latency and loss are dropped, as is a CSV final rate.
struct PensieveTrace {
    /// Reads the file at `path`.
    static func read(path: String) throws -> Trace {
        let reader = try LineReader(path: path)
        var first: Double?
        var previous = 0.0
        var starts: [Double] = []
        var rates: [Double] = []
        var lines: [Int32] = []
        var lineCount = 0
        while let raw = try reader.nextLine() {
            let fields = TraceText.whitespaceFields(raw)
            if fields.isEmpty { continue }
            let line = reader.lineNumber
            guard fields.count == 2 else {
                throw InputError(
                    .line(path, line),
                    .expected("two numbers `time_s throughput_Mbit/s`", found: "\(fields.count) fields"))
            }
            let time = try number(fields[0], "time", path, line)
            let mbps = try number(fields[1], "throughput", path, line)
            guard mbps >= 0 else {
                throw InputError(.line(path, line), .negative("throughput", found: "\(mbps)", unit: "Mbit/s"))
            }
            guard mbps * 1e6 <= Trace.maximumRateBps else {
                throw InputError(.line(path, line), Trace.tooFast(mbps * 1e6))
            }
            guard Trace.isReadableSlowRate(mbps * 1e6) else {
                throw InputError(.line(path, line), Trace.tooSlow(mbps * 1e6))
            }
            if let first {
                guard time - first <= Trace.maximumDurationSeconds else {
                    throw InputError(
                        .line(path, line),
                        Trace.tooLong("time \(TraceText.format(time)) s", time - first))
                }
                guard time > previous else {
                    throw InputError(
                        .line(path, line),
                        .outOfOrder(
                            "timestamps", order: "increase", found: "\(TraceText.format(time)) s",
                            after: "\(TraceText.format(previous)) s"))
                }
                starts.append(previous - first)
                rates.append(mbps * 1e6)
                lines.append(Int32(truncatingIfNeeded: line))
            } else {
                first = time
            }
            previous = time
            lineCount += 1
        }
        guard let first else {
            throw InputError(.line(path, max(reader.lineNumber, 1)), .empty("trace", no: "samples"))
        }
        guard lineCount >= 2 else {
            throw InputError(
                .line(path, reader.lineNumber),
                .expected(
                    "at least two lines (each interval runs at the rate of the sample at its end)",
                    found: "\(lineCount)"))
        }
        var trace = Trace(
            name: InputFile.fileName(of: path), starts: starts, ratesBps: rates, duration: previous - first)
        trace.places = TracePlaces(file: path, kind: .lines(lines))
        return trace
    }

    /// The cooked text of `trace`.
    static func write(_ trace: Trace) -> [UInt8] {
        var text = "0\t\(TraceText.format(trace.ratesBps[0] / 1e6))\n"
        for i in 0..<trace.pieceCount {
            text += "\(TraceText.format(trace.end(ofPiece: i)))\t\(TraceText.format(trace.ratesBps[i] / 1e6))\n"
        }
        return Array(text.utf8)
    }

    private static func number(_ field: ArraySlice<UInt8>, _ what: String, _ path: String, _ line: Int) throws
        -> Double
    {
        guard let value = TraceText.number(field) else {
            throw InputError(.line(path, line), .isNot("a number", subject: what, found: "‘\(TraceText.text(field))’"))
        }
        guard value.isFinite else {
            throw InputError(
                .line(path, line), .mustBe(what, rule: "a finite number", found: TraceText.text(field)))
        }
        return value
    }
}

extension PensieveTrace: TraceFileFormat {
    var name: String { "pensieve" }
    var appearance: String { "`time_s throughput_Mbit/s` lines (pensieve)" }

    /// Two numbers per line.
    func recognises(firstLine line: ArraySlice<UInt8>) -> Bool {
        let fields = TraceText.whitespaceFields(line)
        return fields.count == 2 && TraceText.number(fields[0]) != nil && TraceText.number(fields[1]) != nil
    }

    func read(path: String, binMs: Int) throws -> Trace { try Self.read(path: path) }

    func write(_ trace: Trace) throws -> [UInt8] { Self.write(trace) }
}
