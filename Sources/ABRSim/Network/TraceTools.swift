/// Operations that make a new ``Trace`` from existing ones: cut a time window (``slice(_:from:to:)``), multiply the
/// rates (``scale(_:by:)``), join traces end to end (``concatenate(_:name:)``), turn a composite network of
/// stretches into one trace file (``trace(of:name:)``), and zero the capacity during outages
/// (``zeroed(_:during:)``).
///
/// Called by `abrsim trace slice|scale|concat` and by the synthetic generators. Latency and loss follow the
/// pieces they belong to. Times are seconds, rates bit/s; errors are ``InputError``s naming the trace.
public enum TraceTools {
    /// The part of one period of `trace` in [`start`, `end`), shifted to start at 0. Needs
    /// 0 ≤ start < end ≤ duration.
    public static func slice(_ trace: Trace, from start: Double, to end: Double) throws -> Trace {
        guard start.isFinite, end.isFinite, start >= 0, end > start, end <= trace.duration else {
            throw InputError(
                .file(trace.name),
                .mustBe(
                    "a slice", rule: "0 ≤ start < end ≤ \(TraceText.format(trace.duration)) s (the trace's duration)",
                    found: "\(TraceText.format(start))–\(TraceText.format(end))", unit: "s"))
        }
        var result = Trace(name: trace.name, starts: [], ratesBps: [], duration: end - start)
        var latencies: [Double] = []
        var losses: [Double] = []
        for i in 0..<trace.pieceCount where trace.end(ofPiece: i) > start && trace.starts[i] < end {
            result.starts.append(max(trace.starts[i], start) - start)
            result.ratesBps.append(trace.ratesBps[i])
            if let latency = trace.latencySeconds { latencies.append(latency[i]) }
            if let loss = trace.lossRates { losses.append(loss[i]) }
        }
        if trace.latencySeconds != nil { result.latencySeconds = latencies }
        if trace.lossRates != nil { result.lossRates = losses }
        return result
    }

    /// `trace` with every rate (and the final `hold` rate) multiplied by `factor` (finite, ≥ 0).
    public static func scale(_ trace: Trace, by factor: Double) throws -> Trace {
        guard factor.isFinite, factor >= 0 else {
            throw InputError(.none, .mustBe("the scale factor", rule: "a finite number ≥ 0", found: "\(factor)"))
        }
        var result = trace
        result.ratesBps = trace.ratesBps.map { $0 * factor }
        result.finalRateBps = trace.finalRateBps.map { $0 * factor }
        return result
    }

    /// The traces one after another (one period each). Latency and loss are kept when every trace has them;
    /// a trace without them joined to one with them gets 0.
    public static func concatenate(_ traces: [Trace], name: String) throws -> Trace {
        guard !traces.isEmpty else { throw InputError(.none, .noneGiven("trace to concatenate")) }
        let withLatency = traces.contains { $0.latencySeconds != nil }
        let withLoss = traces.contains { $0.lossRates != nil }
        var result = Trace(name: name, starts: [], ratesBps: [], duration: 0)
        var latencies: [Double] = []
        var losses: [Double] = []
        for trace in traces {
            _ = try trace.curve(atEnd: .loop)  // validates the shape
            let offset = result.duration
            result.starts += trace.starts.map { $0 + offset }
            result.ratesBps += trace.ratesBps
            if withLatency { latencies += trace.latencySeconds ?? Array(repeating: 0, count: trace.pieceCount) }
            if withLoss { losses += trace.lossRates ?? Array(repeating: 0, count: trace.pieceCount) }
            result.duration = offset + trace.duration
        }
        if withLatency { result.latencySeconds = latencies }
        if withLoss { result.lossRates = losses }
        return result
    }

    /// One period of a composite network's curve as a trace: the WiFi → LTE → 3G walk with its outages, ready to
    /// be written to a file. Latency is kept when some piece has a non-zero one, loss when some piece has loss.
    public static func trace(of timeline: NetworkTimeline, name: String) -> Trace {
        let curve = timeline.curve
        var trace = Trace(name: name, starts: curve.starts, ratesBps: curve.ratesBps, duration: curve.duration)
        if let latency = curve.latencySeconds, latency.contains(where: { $0 != 0 }) { trace.latencySeconds = latency }
        if let loss = curve.lossRates, loss.contains(where: { $0 != 0 }) { trace.lossRates = loss }
        return trace
    }

    /// `trace` with zero capacity during each interval [start, end) (sorted, disjoint, within the trace);
    /// adjacent pieces of equal rate, latency and loss are merged.
    public static func zeroed(_ trace: Trace, during intervals: [(start: Double, end: Double)]) -> Trace {
        guard !intervals.isEmpty else { return trace }
        var result = Trace(name: trace.name, starts: [], ratesBps: [], duration: trace.duration)
        var latencies: [Double] = []
        var losses: [Double] = []
        func append(_ start: Double, _ rate: Double, _ piece: Int) {
            let latency = trace.latencySeconds?[piece]
            let loss = trace.lossRates?[piece]
            if let last = result.starts.last {
                if start <= last { return }
                if result.ratesBps.last == rate, latencies.last == latency, losses.last == loss { return }
            }
            result.starts.append(start)
            result.ratesBps.append(rate)
            if let latency { latencies.append(latency) }
            if let loss { losses.append(loss) }
        }
        var k = 0  // first interval that may still overlap
        for i in 0..<trace.pieceCount {
            var t = trace.starts[i]
            let end = trace.end(ofPiece: i)
            while t < end {
                while k < intervals.count, intervals[k].end <= t { k += 1 }
                if k < intervals.count, intervals[k].start <= t {
                    append(t, 0, i)
                    t = min(intervals[k].end, end)
                } else {
                    append(t, trace.ratesBps[i], i)
                    t = k < intervals.count ? min(intervals[k].start, end) : end
                }
            }
        }
        if trace.latencySeconds != nil { result.latencySeconds = latencies }
        if trace.lossRates != nil { result.lossRates = losses }
        return result
    }
}

extension TraceTools {
    /// A stretch written on a command line: `FILE` or `FILE=S` (a trace, looped or cut to S seconds),
    /// `preset:NAME=S`, `kbps:K=S` (a constant rate) or `outage=S`; with its label (file name, preset key,
    /// `<K>kbps`, `outage`). Used by `abrsim trace concat`.
    public static func stretch(parsing text: String) throws -> (NetworkStretch, String) {
        var head = Substring(text)
        var seconds: Double?
        if let equals = text.lastIndex(of: "=") {
            head = text[..<equals]
            let value = text[text.index(after: equals)...]
            guard let parsed = Double(value), parsed.isFinite, parsed > 0 else {
                throw InputError(
                    InputPlace(position: InputPlace.Position(text: text)),
                    .isNot("a positive number of seconds", subject: nil, found: "‘\(value)’"))
            }
            seconds = parsed
        }
        func required() throws -> Double {
            guard let seconds else {
                throw InputError(
                    InputPlace(position: InputPlace.Position(text: text)),
                    .required("the stretch's length \(head)=SECONDS"))
            }
            return seconds
        }
        if head == "outage" { return (.outage(seconds: try required()), "outage") }
        if head.hasPrefix("preset:") {
            let name = String(head.dropFirst("preset:".count))
            guard let preset = NetworkPreset.named(name) else {
                throw InputError(
                    InputPlace(position: InputPlace.Position(text: text)),
                    .unknownName(name, kind: "preset", known: NetworkPreset.catalogue.map(\.name)))
            }
            return (.preset(preset, seconds: try required()), preset.name)
        }
        if head.hasPrefix("kbps:") {
            let value = head.dropFirst("kbps:".count)
            guard let kbps = Double(value), kbps.isFinite, kbps >= 0 else {
                throw InputError(
                    InputPlace(position: InputPlace.Position(text: text)),
                    .isNot("a rate in kbit/s ≥ 0", subject: nil, found: "‘\(value)’"))
            }
            return (.constant(bps: kbps * 1000, seconds: try required(), rttSeconds: nil), "\(value)kbps")
        }
        let trace = try TraceReader.read(path: String(head))
        return (.trace(trace, seconds: seconds, rttSeconds: nil), trace.name)
    }
}
