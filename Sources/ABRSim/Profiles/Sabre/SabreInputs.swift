#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// One period of a sabre network trace, in sabre's own units and without conversion: `duration_ms` (ms),
/// `bandwidth_kbps` (kbit/s = bits/ms, already multiplied by `-nm`), `latency_ms` (ms before each request's first
/// bit). Read by ``SabreNetworkTrace/read(path:multiplier:)``; played by ``SabreSimulation``.
public struct SabreNetworkPeriod: Sendable, Equatable {
    /// Length of the period, ms.
    public var durationMs: Double
    /// Bandwidth during the period, kbit/s.
    public var bandwidthKbps: Double
    /// Latency of a request during the period, ms.
    public var latencyMs: Double

    /// A period from its three fields.
    public init(durationMs: Double, bandwidthKbps: Double, latencyMs: Double) {
        self.durationMs = durationMs
        self.bandwidthKbps = bandwidthKbps
        self.latencyMs = latencyMs
    }
}

/// A sabre network file (`[{"duration_ms", "bandwidth_kbps", "latency_ms"}, …]`), read raw: every number as
/// Python's `json` gives it (integers exact, decimals correctly rounded), no change of units, so that sabre's
/// arithmetic runs on the same doubles. Other keys are ignored, as sabre ignores them. Unlike sabre, a file on
/// which sabre would loop forever (no period with both time and bandwidth) or compute nonsense (a negative field)
/// is refused with an ``InputError`` naming the file and the JSON path.
public enum SabreNetworkTrace {
    /// The periods of the file at `path`, bandwidths multiplied by `multiplier` (sabre's `-nm`). Periods are decoded
    /// as the parser reads them, so a long trace is never held as a JSON tree.
    public static func read(path: String, multiplier: Double = 1) throws -> [SabreNetworkPeriod] {
        let bytes = try InputFile.readAll(path, limitBytes: JSONParser.fileLimitBytes)
        var periods: [SabreNetworkPeriod] = []
        // Well-formed periods are read as records of three numbers; any other goes through `period`.
        let notArray = try JSONParser.parseRecords(
            bytes, file: path, keys: ["duration_ms", "bandwidth_kbps", "latency_ms"],
            record: { _, values in
                guard let duration = accepted(values[0]), let bandwidth = accepted(values[1]),
                    let latency = accepted(values[2])
                else { return false }
                periods.append(
                    SabreNetworkPeriod(
                        durationMs: duration, bandwidthKbps: bandwidth * multiplier, latencyMs: latency))
                return true
            }
        ) { index, element in
            periods.append(try period(element, at: index, in: path, multiplier: multiplier))
        }
        let root = JSONReader(notArray ?? .array([]), file: path)
        if notArray != nil { _ = try root.array() }
        guard !periods.isEmpty else { throw root.error(.empty("network", no: "periods")) }
        guard periods.contains(where: { $0.durationMs > 0 && $0.bandwidthKbps > 0 }) else {
            throw root.error(.noneGiven("period with both a duration and a bandwidth above 0", in: "the network"))
        }
        return periods
    }

    /// `x` when a period may hold it directly (finite, not subnormal, not negative), else `nil`.
    @inline(__always) static func accepted(_ x: Double) -> Double? {
        x.isFinite && !x.isSubnormal && x >= 0 ? x : nil
    }

    /// The period `element` (at `$[index]` of the file at `path`). A well-formed period is read directly; any
    /// other is read through ``JSONReader``, which accepts exactly the same values and names the place of the
    /// first problem.
    static func period(_ element: JSONValue, at index: Int, in path: String, multiplier: Double) throws
        -> SabreNetworkPeriod
    {
        func number(_ value: JSONValue?) -> Double? {
            guard case .number(let x)? = value else { return nil }
            return accepted(x)
        }
        if case .object(let object) = element, let duration = number(object.values["duration_ms"]),
            let bandwidth = number(object.values["bandwidth_kbps"]),
            let latency = number(object.values["latency_ms"])
        {
            return SabreNetworkPeriod(durationMs: duration, bandwidthKbps: bandwidth * multiplier, latencyMs: latency)
        }
        let object = try JSONReader(element, file: path, path: JSONPath.index("$", index)).object()
        return SabreNetworkPeriod(
            durationMs: try object.required("duration_ms").nonNegativeDouble(),
            bandwidthKbps: try object.required("bandwidth_kbps").nonNegativeDouble() * multiplier,
            latencyMs: try object.required("latency_ms").nonNegativeDouble())
    }
}

/// A sabre movie (`{"segment_duration_ms", "bitrates_kbps", "segment_sizes_bits"}`), read raw as sabre reads it:
/// segment time in ms, bitrates in kbit/s, sizes in bits per segment and level, with sabre's utilities
/// ln(bitrate/lowest). `-ml` (``repeated(toSeconds:)``) repeats and cuts the segment list as sabre does. Built by
/// ``read(path:)``; played by ``SabreSimulation``.
public struct SabreManifest: Sendable {
    /// Segment duration, ms.
    public var segmentTimeMs: Double
    /// Bitrate of each level, kbit/s, ascending.
    public var bitratesKbps: [Double]
    /// `log(b) + (0 − log(b₀))` for each level, as sabre's main program computes it.
    public var utilities: [Double]
    /// Size of every segment at every level, bits, segment-major (`sizes[segment × levels + level]`).
    public var sizesBits: [Double]
    /// Number of segments.
    public var segmentCount: Int

    /// Number of levels.
    public var levelCount: Int { bitratesKbps.count }

    /// The size of `segment` at `level`, bits.
    @inline(__always) public func size(segment: Int, level: Int) -> Double {
        sizesBits[segment * bitratesKbps.count + level]
    }

    /// A manifest from its parts (sizes segment-major).
    public init(segmentTimeMs: Double, bitratesKbps: [Double], sizesBits: [Double]) {
        self.segmentTimeMs = segmentTimeMs
        self.bitratesKbps = bitratesKbps
        let offset = 0 - log(bitratesKbps[0])
        utilities = bitratesKbps.map { log($0) + offset }
        self.sizesBits = sizesBits
        segmentCount = sizesBits.count / bitratesKbps.count
    }

    /// Reads the movie at `path`. Bitrates must be positive and strictly ascending and sizes positive (sabre
    /// takes their logarithms and divides by download times).
    public static func read(path: String) throws -> SabreManifest {
        let root = try JSONReader(JSONParser.parseFile(path), file: path)
        let movie = try root.object()
        let segmentTime = try movie.required("segment_duration_ms").positiveDouble()
        let bitratesReader = try movie.required("bitrates_kbps")
        var bitrates: [Double] = []
        for element in try bitratesReader.array() {
            let kbps = try element.positiveDouble()
            if let previous = bitrates.last, kbps <= previous {
                throw element.error(
                    .mustBe(
                        "bitrates", rule: "strictly ascending",
                        found: "\(JSONPath.format(kbps)) after \(JSONPath.format(previous))"))
            }
            bitrates.append(kbps)
        }
        guard !bitrates.isEmpty else { throw bitratesReader.error(.noneGiven("bitrate", in: "the movie")) }
        let sizesReader = try movie.required("segment_sizes_bits")
        let segments = try sizesReader.array()
        guard !segments.isEmpty else { throw sizesReader.error(.noneGiven("segment", in: "the movie")) }
        var sizes: [Double] = []
        sizes.reserveCapacity(segments.count * bitrates.count)
        for segment in segments {
            let levels = try segment.array()
            guard levels.count == bitrates.count else {
                throw segment.error(
                    .expected("\(bitrates.count) sizes (one per bitrate)", found: "\(levels.count)"))
            }
            for level in levels { sizes.append(try level.positiveDouble()) }
        }
        return SabreManifest(segmentTimeMs: segmentTime, bitratesKbps: bitrates, sizesBits: sizes)
    }

    /// Sabre's `-ml LEN`: ⌈LEN·1000/segment time⌉ segments, the list repeated as often as needed and cut.
    /// `nil` when that is no segment at all (sabre fails there) or more than 10,000,000.
    public func repeated(toSeconds length: Double) -> SabreManifest? {
        let wanted = (length * 1000 / segmentTimeMs).rounded(.up)
        guard wanted >= 1, wanted < 10_000_000 else { return nil }
        let count = Int(wanted)
        let levels = bitratesKbps.count
        var sizes: [Double] = []
        sizes.reserveCapacity(count * levels)
        for segment in 0..<count {
            let source = segment % segmentCount
            sizes.append(contentsOf: sizesBits[(source * levels)..<((source + 1) * levels)])
        }
        var result = self
        result.sizesBits = sizes
        result.segmentCount = count
        return result
    }
}
