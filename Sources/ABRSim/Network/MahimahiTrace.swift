/// Reads and writes mahimahi link traces (Winstein, Sivaraman, Balakrishnan, NSDI 2013; mm-link).
///
/// Format: one line per 1500-byte delivery opportunity; the line is the integer millisecond at which it occurs,
/// non-decreasing, and the same millisecond repeats when several packets fit in it. The period is the last
/// timestamp (ms) and mm-link loops the trace there. Called by ``TraceReader`` and ``TraceWriter``.
///
/// Reading: with bin width w ms (default 1), an opportunity at t ms belongs to the bin (k·w, (k+1)·w] (t = 0
/// belongs to the first bin), and each bin runs at count · 12 000 bit / w ms. The last bin is cut at the period
/// and its rate uses its actual width, so the mean rate is exactly lines · 12 000 bit / last ms. Consecutive
/// equal-rate bins (including runs of empty bins) merge into one piece. A file containing just `1` is a constant
/// 12 Mbit/s link with a 1 ms period. The file streams through ``LineReader``: memory grows with the number of
/// pieces, not the file size. Blank lines are skipped.
///
/// Writing is lossy: time is quantised to whole milliseconds and bits to whole 1500-byte packets (cumulative
/// bits are rounded to the nearest packet at each ms, so the error never accumulates beyond half a packet, plus
/// one packet moved to the last millisecond when needed to keep the period); latency and loss are dropped.
struct MahimahiTrace {
    /// Bits in one delivery opportunity (a 1500-byte packet).
    static let bitsPerOpportunity = 12_000.0
    /// The longest period (ms) and the most packets ``write(_:)`` writes: 10⁸, about 28 hours or 1.2 Tbit.
    static let maximumWrittenLines = 100_000_000

    /// Reads the file at `path` with bins of `binMs` milliseconds.
    static func read(path: String, binMs: Int = 1) throws -> Trace {
        guard binMs >= 1 else {
            throw InputError(.file(path), .mustBe("mahimahi bin width", rule: "≥ 1 ms", found: "\(binMs)"))
        }
        let reader = try LineReader(path: path)
        var builder = PieceBuilder()
        let w = binMs
        var last = -1
        var lastLine = 0
        var currentBin = -1
        var count = 0
        var nextBin = 0  // first bin not yet emitted
        while let raw = try reader.nextLine() {
            let field = TraceText.trimmed(raw)
            if field.isEmpty { continue }
            guard let t = TraceText.unsignedInteger(field) else {
                let text = TraceText.text(field)
                if text.hasPrefix("-"), Int(text) != nil {
                    throw InputError(.line(path, reader.lineNumber), .negative("timestamp", found: text, unit: "ms"))
                }
                throw InputError(
                    .line(path, reader.lineNumber),
                    .expected("an integer millisecond timestamp", found: "‘\(text)’"))
            }
            guard Double(t) <= Trace.maximumDurationSeconds * 1000 else {
                throw InputError(
                    .line(path, reader.lineNumber),
                    Trace.tooLong("timestamp \(t) ms", Double(t) / 1000))
            }
            guard t >= last else {
                throw InputError(
                    .line(path, reader.lineNumber),
                    .outOfOrder("timestamps", order: "not decrease", found: "\(t) ms", after: "\(last) ms"))
            }
            let bin = t == 0 ? 0 : (t - 1) / w
            if bin == currentBin {
                count += 1
            } else {
                if currentBin >= 0 {
                    if currentBin > nextBin { builder.append(startMs: nextBin * w, rateBps: 0) }
                    builder.append(
                        startMs: currentBin * w, rateBps: Double(count) * bitsPerOpportunity * 1000 / Double(w))
                    nextBin = currentBin + 1
                }
                currentBin = bin
                count = 1
            }
            last = t
            lastLine = reader.lineNumber
        }
        guard last >= 0 else {
            throw InputError(.line(path, max(reader.lineNumber, 1)), .empty("trace", no: "timestamps"))
        }
        guard last > 0 else {
            throw InputError(
                .line(path, lastLine),
                .mustBe("the last timestamp", rule: "above 0 ms (the trace's duration)", found: "0", unit: "ms"))
        }
        if currentBin > nextBin { builder.append(startMs: nextBin * w, rateBps: 0) }
        let width = last - currentBin * w
        builder.append(startMs: currentBin * w, rateBps: Double(count) * bitsPerOpportunity * 1000 / Double(width))
        var trace = Trace(
            name: InputFile.fileName(of: path), starts: builder.starts, ratesBps: builder.rates,
            duration: Double(last) / 1000)
        trace.places = TracePlaces(file: path, kind: .wholeFile(lastLine: lastLine))
        return trace
    }

    /// The mahimahi text of `trace` (see the type's notes on what is lost).
    static func write(_ trace: Trace) throws -> [UInt8] {
        // One counter per millisecond and one line per packet are held in memory: bound both.
        let totalBits = (0..<trace.pieceCount).reduce(0.0) { bits, i in
            bits + trace.ratesBps[i] * (trace.end(ofPiece: i) - trace.starts[i])
        }
        guard trace.duration <= Double(maximumWrittenLines) / 1000,
            totalBits <= Double(maximumWrittenLines) * bitsPerOpportunity
        else {
            throw InputError(
                .file(trace.name),
                .overLimit(
                    "\(TraceText.format(trace.duration)) s carrying \(TraceText.format(totalBits)) bits",
                    limit: "\(maximumWrittenLines) ms and as many packets for a mahimahi trace"))
        }
        let periodMs = Int((trace.duration * 1000).rounded())
        guard periodMs >= 1 else {
            throw InputError(
                .file(trace.name),
                .mustBe(
                    "a mahimahi trace's period", rule: "at least 1 ms", found: TraceText.format(trace.duration * 1000),
                    unit: "ms"))
        }
        // Packets delivered by each millisecond (cumulative bits rounded to whole packets), walking the pieces
        // once; the last entry covers the whole period.
        var cumulative = [Int](repeating: 0, count: periodMs + 1)
        var piece = 0
        var bitsAtPieceStart = 0.0
        for m in 1...periodMs {
            let t = m == periodMs ? trace.duration : min(Double(m) / 1000, trace.duration)
            while piece + 1 < trace.pieceCount, trace.starts[piece + 1] <= t {
                bitsAtPieceStart += trace.ratesBps[piece] * (trace.starts[piece + 1] - trace.starts[piece])
                piece += 1
            }
            let bits = bitsAtPieceStart + trace.ratesBps[piece] * (t - trace.starts[piece])
            cumulative[m] = Int((bits / bitsPerOpportunity).rounded())
        }
        let total = cumulative[periodMs]
        guard total >= 1 else {
            throw InputError(
                .file(trace.name),
                .mustBe(
                    "a mahimahi trace's 1500-byte delivery opportunities", rule: "at least 1", found: "\(total)"))
        }
        // The period is the last timestamp, so the last millisecond must hold an opportunity: if it would not,
        // hold one packet back from earlier and put it there.
        let reserve = periodMs > 1 && cumulative[periodMs - 1] >= total ? 1 : 0
        var bytes: [UInt8] = []
        bytes.reserveCapacity(total * 7)
        var previous = 0
        for m in 1...periodMs {
            let count = m == periodMs ? total : min(cumulative[m], total - reserve)
            if count > previous {
                let line = Array(String(m).utf8) + [UInt8(ascii: "\n")]
                for _ in previous..<count { bytes.append(contentsOf: line) }
                previous = count
            }
        }
        return bytes
    }
}

/// Accumulates pieces for a reader, merging a piece into the previous one when the rate is the same.
/// Used by ``MahimahiTrace``.
struct PieceBuilder {
    var starts: [Double] = []
    var rates: [Double] = []

    /// Adds a piece starting at `startMs` milliseconds unless it continues the previous piece's rate.
    mutating func append(startMs: Int, rateBps: Double) {
        if rates.last == rateBps { return }
        starts.append(Double(startMs) / 1000)
        rates.append(rateBps)
    }
}

extension MahimahiTrace: TraceFileFormat {
    var name: String { "mahimahi" }
    var appearance: String { "one integer millisecond per line (mahimahi)" }

    /// A single integer per line.
    func recognises(firstLine line: ArraySlice<UInt8>) -> Bool {
        let fields = TraceText.whitespaceFields(line)
        return fields.count == 1 && TraceText.unsignedInteger(fields[0]) != nil
    }

    func read(path: String, binMs: Int) throws -> Trace { try Self.read(path: path, binMs: binMs) }

    func write(_ trace: Trace) throws -> [UInt8] { try Self.write(trace) }
}
