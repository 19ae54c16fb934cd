/// Reads and writes ABRSim's plain CSV traces.
///
/// Format: a header line naming the columns, in any order: `time_s` and `bandwidth_kbps` (required),
/// `latency_ms` and `loss` (optional, loss as a fraction in [0, 1]); an unknown or repeated column is an error.
/// Then one row per change. Blank lines and `#` comments are ignored. Called by ``TraceReader`` and
/// ``TraceWriter``.
///
/// Row i's bandwidth (and latency, loss) holds from its time to the next row's time. The **last row marks the
/// end of the trace**: its time is the duration (measured from the first row's time, which becomes 0), and its
/// bandwidth, latency and loss are what `hold` keeps afterwards (``Trace/finalRateBps`` and friends), so a CSV
/// round trip is exact. At least two rows are needed; times must increase.
struct CSVTrace {
    /// The column names the reader knows.
    static let columns = ["time_s", "bandwidth_kbps", "latency_ms", "loss"]

    /// Reads the file at `path`.
    static func read(path: String) throws -> Trace {
        let reader = try LineReader(path: path)
        var index: [String: Int] = [:]  // column name → field position
        var fieldCount = 0
        var rows: [(time: Double, kbps: Double, latencyMs: Double?, loss: Double?, line: Int32)] = []
        while let raw = try reader.nextLine() {
            let line = TraceText.trimmed(raw)
            if line.isEmpty || line.first == UInt8(ascii: "#") { continue }
            let n = reader.lineNumber
            let fields = TraceText.commaFields(line)
            if fieldCount == 0 {
                for (position, field) in fields.enumerated() {
                    let name = TraceText.text(field)
                    guard columns.contains(name) else {
                        throw InputError(
                            .line(path, n),
                            .unknownName(
                                name, kind: "column", known: ["time_s", "bandwidth_kbps", "latency_ms", "loss"]))
                    }
                    guard index[name] == nil else {
                        throw InputError(.line(path, n), .duplicate("\(name)", of: "column"))
                    }
                    index[name] = position
                }
                for required in columns[0..<2] where index[required] == nil {
                    throw InputError(
                        .line(path, n),
                        .missing("column ‘\(required)’ (time_s,bandwidth_kbps[,latency_ms][,loss])"))
                }
                fieldCount = fields.count
                continue
            }
            guard fields.count == fieldCount else {
                throw InputError(
                    .line(path, n), .expected("\(fieldCount) fields as in the header", found: "\(fields.count)"))
            }
            func value(_ column: String) throws -> Double? {
                guard let position = index[column] else { return nil }
                let field = fields[position]
                guard let number = TraceText.number(field), number.isFinite else {
                    throw InputError(
                        .line(path, n), .isNot("a finite number", subject: column, found: "‘\(TraceText.text(field))’"))
                }
                guard !number.isSubnormal else {
                    throw InputError(
                        .line(path, n),
                        .mustBe(column, rule: "0 or ≥ 2.2e-308, not denormal", found: "‘\(TraceText.text(field))’"))
                }
                return number
            }
            let time = try value("time_s")!
            let kbps = try value("bandwidth_kbps")!
            let latency = try value("latency_ms")
            let loss = try value("loss")
            guard kbps >= 0 else {
                throw InputError(.line(path, n), .negative("bandwidth", found: "\(kbps)", unit: "kbit/s"))
            }
            guard kbps * 1000 <= Trace.maximumRateBps else {
                throw InputError(.line(path, n), Trace.tooFast(kbps * 1000))
            }
            guard Trace.isReadableSlowRate(kbps * 1000) else {
                throw InputError(.line(path, n), Trace.tooSlow(kbps * 1000))
            }
            if let latency, latency < 0 {
                throw InputError(.line(path, n), .negative("latency", found: "\(latency)", unit: "ms"))
            }
            if let latency, latency > ScenarioBounds.rttMs.upperBound {
                throw InputError(.line(path, n), .overLimit("latency \(latency) ms", limit: "600000 ms"))
            }
            if let loss, !(loss >= 0 && loss <= 1) {
                throw InputError(.line(path, n), .mustBe("loss", rule: "a fraction in [0, 1]", found: "\(loss)"))
            }
            if let previous = rows.last, !(time > previous.time) {
                throw InputError(
                    .line(path, n),
                    .outOfOrder(
                        "timestamps", order: "increase", found: "\(TraceText.format(time)) s",
                        after: "\(TraceText.format(previous.time)) s"))
            }
            if let first = rows.first, time - first.time > Trace.maximumDurationSeconds {
                throw InputError(
                    .line(path, n),
                    Trace.tooLong("time \(TraceText.format(time)) s", time - first.time))
            }
            rows.append((time, kbps, latency, loss, Int32(truncatingIfNeeded: n)))
        }
        guard fieldCount > 0 else {
            throw InputError(.line(path, max(reader.lineNumber, 1)), .empty("trace", no: "header"))
        }
        guard rows.count >= 2 else {
            throw InputError(
                .line(path, reader.lineNumber),
                .expected("at least two rows (the last row marks the end of the trace)", found: "\(rows.count)"))
        }
        let t0 = rows[0].time
        let body = rows.dropLast()
        let final = rows[rows.count - 1]
        var trace = Trace(
            name: InputFile.fileName(of: path), starts: body.map { $0.time - t0 },
            ratesBps: body.map { $0.kbps * 1000 },
            duration: final.time - t0,
            latencySeconds: index["latency_ms"] == nil ? nil : body.map { $0.latencyMs! / 1000 },
            lossRates: index["loss"] == nil ? nil : body.map { $0.loss! }, finalRateBps: final.kbps * 1000,
            finalLatencySeconds: final.latencyMs.map { $0 / 1000 }, finalLossRate: final.loss)
        trace.places = TracePlaces(file: path, kind: .lines(body.map(\.line)))
        return trace
    }

    /// The CSV text of `trace`: one row per piece, then the final row at `duration`.
    static func write(_ trace: Trace) -> [UInt8] {
        var text = "time_s,bandwidth_kbps"
        if trace.latencySeconds != nil { text += ",latency_ms" }
        if trace.lossRates != nil { text += ",loss" }
        text += "\n"
        func row(_ time: Double, _ rate: Double, _ latency: Double?, _ loss: Double?) {
            text += "\(TraceText.format(time)),\(TraceText.format(rate / 1000))"
            if let latency { text += ",\(TraceText.format(latency * 1000))" }
            if let loss { text += ",\(TraceText.format(loss))" }
            text += "\n"
        }
        for i in 0..<trace.pieceCount {
            row(trace.starts[i], trace.ratesBps[i], trace.latencySeconds?[i], trace.lossRates?[i])
        }
        row(
            trace.duration, trace.finalRateBps ?? trace.ratesBps[trace.pieceCount - 1],
            trace.latencySeconds.map { trace.finalLatencySeconds ?? $0[$0.count - 1] },
            trace.lossRates.map { trace.finalLossRate ?? $0[$0.count - 1] })
        return Array(text.utf8)
    }
}

extension CSVTrace: TraceFileFormat {
    var name: String { "csv" }
    var appearance: String { "a CSV header starting with time_s" }

    /// A line starting with `time_s`, or any comma-separated line starting with a letter (a header in another column order).
    func recognises(firstLine line: ArraySlice<UInt8>) -> Bool {
        if line.starts(with: Array("time_s".utf8)) { return true }
        // A header in another column order (`bandwidth_kbps,time_s`): commas and a name first.
        guard line.contains(UInt8(ascii: ",")), let first = line.first else { return false }
        return (first | 0x20) >= UInt8(ascii: "a") && (first | 0x20) <= UInt8(ascii: "z")
    }

    func read(path: String, binMs: Int) throws -> Trace { try Self.read(path: path) }

    func write(_ trace: Trace) throws -> [UInt8] { Self.write(trace) }
}
