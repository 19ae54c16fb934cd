/// Decodes a scenario's `network` object into a ``NetworkTimeline`` and a label for the `trace` column.
///
/// Forms: `{"trace": "x.down", "format"?, "rttMs"?, "atEnd"?}` (one trace), `{"preset": "lte", …}` (one
/// preset), or `{"stretches": [...], "rttMs"?, "atEnd"?, "name"?}` where each stretch is `{"preset": "wifi",
/// "seconds": 60}`, `{"constantKbps": 1000, "seconds": 30, "rttMs"?}`, `{"trace": "…", "format"?,
/// "seconds"?, "rttMs"?}`, `{"synthetic": {...}, "seconds"?}` (a generated trace, see ``SyntheticModelDecoder``;
/// its seed defaults to the scenario's) or `{"outageSeconds": 2}`; a whole network may also be `{"synthetic": …}`. `rttMs` at the top is the RTT of stretches that carry
/// none of their own (presets carry theirs; sabre traces carry per-period latency). `atEnd`: `loop`
/// (default), `hold`, `end`.
struct NetworkDecoder {
    /// Resolution at which mahimahi traces enter the fluid model unless a stretch says otherwise (`binMs`):
    /// 100 ms. At mahimahi's native 1 ms a link is a train of packet-sized spikes (0, 12, 24 Mbit/s …); a rate
    /// cap (a player's limit, the loss bound) applied spike by spike would throttle a flow far below its cap,
    /// whereas a real bottleneck queue smooths delivery over tens of milliseconds. Totals are preserved.
    static let defaultMahimahiBinMs = 100
    /// The problem of an `rttMs` on a preset stretch, which carries its own RTT.
    static let presetRTT = InputProblem.withAdvice(
        .notApplicable("rttMs", onlyFor: "constantKbps, trace and synthetic stretches", here: "a preset"),
        advice: "a preset carries its own RTT; use constantKbps to set one")

    let directory: String
    /// The default seed of synthetic traces (the run's seed).
    var seed: UInt64 = 1
    /// Whether ``seed`` also replaces a synthetic model's own `seed` (a command line's `--seed`).
    var overridesModelSeeds = false
    /// Which network of the scenario this is, for its random streams: 0 the shared link, r + 1 route r.
    var networkIndex = 0

    func decode(_ reader: JSONReader) throws -> (NetworkTimeline, String) {
        let object = try reader.object()
        let rtt = try (object.optional("rttMs")?.double(in: ScenarioBounds.rttMs) ?? 0) / 1000
        var atEnd = TraceEndBehavior.loop
        if let x = object.optional("atEnd") {
            let text = try x.string()
            guard let behavior = TraceEndBehavior(rawValue: text) else {
                throw x.error(.oneOf("atEnd", allowed: ["loop", "hold", "end"], found: text))
            }
            atEnd = behavior
        }
        let name = try object.optional("name")?.string()
        object.markKnown("downloadModel")  // read by the scenario loader, for every player
        var stretches: [NetworkStretch] = []
        var labels: [String] = []
        let forms = ["trace", "preset", "stretches", "synthetic"].filter { object.has($0) }
        guard forms.count == 1 else {
            throw reader.error(
                .conflicting(
                    ["trace", "preset", "synthetic", "stretches"],
                    reason: "give exactly one of trace, preset, synthetic or stretches"))
        }
        if object.has("stretches") {
            let list = try object.required("stretches").array()
            guard !list.isEmpty else { throw reader.error(.noneGiven("stretch", in: "stretches")) }
            for (position, item) in list.enumerated() {
                let (stretch, label) = try decodeStretch(item, position: position)
                stretches.append(stretch)
                labels.append(label)
            }
        } else {
            let (stretch, label) = try decodeStretch(reader, object: object, isWholeNetwork: true, position: 0)
            stretches.append(stretch)
            labels.append(label)
        }
        try object.finish()
        do {
            let timeline = try NetworkTimeline.build(stretches, defaultRttSeconds: rtt, atEnd: atEnd)
            return (timeline, name ?? labels.filter { $0 != "outage" }.joined(separator: "+"))
        } catch var error as InputError {
            // Errors raised below the file layer (the timeline, a generated trace's curve) get the scenario file
            // and the JSON path here: `stretches[i]` becomes `$.network.stretches[i]`.
            if error.file == nil {
                error.file = reader.file
                if let location = error.location, location.hasPrefix("stretches["), object.has("stretches") {
                    error.location = reader.path + "." + location
                } else {
                    error.location = reader.path + (error.location.map { " (\($0))" } ?? "")
                }
            }
            throw error
        }
    }

    func decodeStretch(_ reader: JSONReader, position: Int) throws -> (NetworkStretch, String) {
        let object = try reader.object()
        let result = try decodeStretch(reader, object: object, isWholeNetwork: false, position: position)
        try object.finish()
        return result
    }

    /// One stretch, at `position` in the network's list; with `isWholeNetwork` the object is the network itself (no
    /// `seconds` needed).
    func decodeStretch(_ reader: JSONReader, object: JSONObjectReader, isWholeNetwork: Bool, position: Int) throws -> (
        NetworkStretch, String
    ) {
        let allKinds = ["preset", "constantKbps", "trace", "synthetic", "outageSeconds"]
        let kinds = allKinds.filter { object.has($0) }
        guard kinds.count == 1 else { throw reader.error(.exactlyOne(of: allKinds, found: kinds)) }
        let rttReader = isWholeNetwork ? nil : object.optional("rttMs")
        let rtt = try rttReader.map { try $0.double(in: ScenarioBounds.rttMs) / 1000 }
        func seconds(required: Bool) throws -> Double? {
            if isWholeNetwork { return nil }
            if required { return try object.required("seconds").double(in: ScenarioBounds.stretchSeconds) }
            return try object.optional("seconds")?.double(in: ScenarioBounds.stretchSeconds)
        }
        switch kinds[0] {
        case "preset":
            let presetReader = try object.required("preset")
            let name = try presetReader.string()
            if let steps = NetworkStepPreset.named(name) {
                if let rttReader { throw rttReader.error(Self.presetRTT) }
                return (steps.stretch(seconds: try seconds(required: false)), steps.name)
            }
            guard let preset = NetworkPreset.named(name) else {
                throw presetReader.error(.unknownName(name, kind: "preset", known: NetworkPreset.allNames))
            }
            if let rttReader { throw rttReader.error(Self.presetRTT) }
            // A whole-network preset lasts forever: one period, held.
            return (.preset(preset, seconds: try seconds(required: true) ?? 3600), preset.name)
        case "constantKbps":
            let kbpsReader = try object.required("constantKbps")
            let kbps = try kbpsReader.double(in: ScenarioBounds.rateKbps)
            return (
                .constant(bps: kbps * 1000, seconds: try seconds(required: true) ?? 3600, rttSeconds: rtt),
                "\(formatParameterNumber(kbps))kbps"
            )
        case "trace":
            let pathReader = try object.required("trace")
            let path = InputFile.resolve(try pathReader.string(), against: directory)
            var format: TraceFormat?
            if let formatReader = object.optional("format") {
                let text = try formatReader.string()
                guard let parsed = TraceFormat(rawValue: text) else {
                    throw formatReader.error(
                        .unknownName(text, kind: "trace format", known: TraceFormat.allCases.map(\.rawValue)))
                }
                format = parsed
            }
            var binMs = Self.defaultMahimahiBinMs
            if let x = object.optional("binMs") {
                binMs = try x.int(in: 1...60_000)
            }
            let trace: Trace
            do {
                trace = try pathReader.readingReferencedFile {
                    try TraceReader.read(path: path, format: format, mahimahiBinMs: binMs)
                }
            } catch var error as InputError where error.isDeclaredFormatClash {
                if let formatReader = object.optional("format"),
                    case .formatClash(let inner, let detected, let declared, _) = error.problem
                {
                    error.problem = .formatClash(
                        inner, detected: detected, declared: declared,
                        declaredAt: "\(formatReader.file): \(formatReader.path)")
                }
                throw error
            }
            return (.trace(trace, seconds: try seconds(required: false), rttSeconds: rtt), trace.name)
        case "synthetic":
            let syntheticReader = try object.required("synthetic")
            let decoded = try SyntheticModelDecoder().decode(syntheticReader)
            let stretchSeconds = try seconds(required: false)
            guard let length = decoded.seconds ?? stretchSeconds else {
                throw syntheticReader.error(.missing("the trace's length: \"seconds\" here or on the stretch"))
            }
            let trace: Trace
            do {
                trace = try SyntheticTraceGenerator.generate(
                    decoded.model, seconds: length, seed: overridesModelSeeds ? seed : decoded.seed ?? seed,
                    name: decoded.label, network: networkIndex, stretch: position)
            } catch var error as InputError {
                error.file = error.file ?? syntheticReader.file
                error.location = error.location ?? syntheticReader.path
                throw error
            }
            return (.trace(trace, seconds: stretchSeconds, rttSeconds: rtt), decoded.label)
        default:
            let outageReader = try object.required("outageSeconds")
            if isWholeNetwork {
                throw outageReader.error(.notApplicable("outageSeconds", onlyFor: "a stretch", here: "a whole network"))
            }
            return (.outage(seconds: try outageReader.double(in: ScenarioBounds.stretchSeconds)), "outage")
        }
    }
}
