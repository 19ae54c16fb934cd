/// A Pensieve "cooked" trace exactly as Pensieve's `load_trace.py` holds it: the raw sample times (seconds) and
/// throughputs (Mbit/s) of each line, each parsed as Python's `float()` does (correctly rounded decimal → double),
/// with nothing shifted or converted, so the ``PensieveProfile`` engine repeats `fixed_env.py`'s arithmetic on
/// the same doubles. (The general model's reader, ``TraceReader``, shifts times to start at 0 and converts rates
/// to bit/s, which is right for it but not bit-identical to Pensieve.) Built by ``PensieveProfile/loadTrace(path:)``.
public struct PensieveCookedTrace: Sendable, Equatable {
    /// The trace's name: its file name.
    public var name: String
    /// `cooked_time`: the first field of every line, seconds.
    public var times: [Double]
    /// `cooked_bw`: the second field of every line, Mbit/s; interval (times[i−1], times[i]] runs at `bandwidths[i]`.
    public var bandwidthsMbps: [Double]

    /// A trace from its columns. Throws an ``InputError`` unless there are at least two samples of each, times
    /// increase, rates are finite and ≥ 0, and some interval has a positive rate (else no chunk ever arrives).
    public init(name: String, times: [Double], bandwidthsMbps: [Double], file: String? = nil) throws {
        guard times.count == bandwidthsMbps.count, times.count >= 2 else {
            throw InputError(
                .file(file),
                .expected("at least two lines `time_s Mbit/s`", found: "\(min(times.count, bandwidthsMbps.count))"))
        }
        for index in 1..<times.count where !(times[index] > times[index - 1]) {
            throw InputError(
                .line(file ?? name, index + 1),
                .mustBe(
                    "the time", rule: "> \(times[index - 1]), the time before it", found: "\(times[index])", unit: "s"))
        }
        for (index, rate) in bandwidthsMbps.enumerated() where !(rate.isFinite && rate >= 0) {
            throw InputError(
                .line(file ?? name, index + 1), .mustBe("throughput", rule: "a finite number ≥ 0", found: "\(rate)"))
        }
        guard bandwidthsMbps.dropFirst().contains(where: { $0 > 0 }) else {
            throw InputError(.file(file), .noneGiven("interval of throughput above 0", in: "the trace"))
        }
        self.name = name
        self.times = times
        self.bandwidthsMbps = bandwidthsMbps
    }

    /// Reads the file at `path`: lines of two whitespace-separated numbers, blank lines skipped. Errors name the
    /// file and line.
    public static func read(path: String) throws -> PensieveCookedTrace {
        let reader = try LineReader(path: path)
        var times: [Double] = []
        var rates: [Double] = []
        while try reader.withNextLine({ line in
            try readLine(line, path: path, number: reader.lineNumber, times: &times, rates: &rates)
        }) != nil {}
        return try PensieveCookedTrace(
            name: InputFile.fileName(of: path), times: times, bandwidthsMbps: rates, file: path)
    }

    /// Appends the time and the throughput of `line` (line `number` of the file at `path`) to `times` and `rates`:
    /// its first two fields separated by spaces, tabs or carriage returns (more are allowed and ignored); a blank
    /// line adds nothing. Each number is rounded correctly, as Python's `float()` does (the value Swift's
    /// `Double(String)` gives).
    private static func readLine(
        _ line: UnsafeBufferPointer<UInt8>, path: String, number: Int, times: inout [Double], rates: inout [Double]
    ) throws {
        @inline(__always) func isGap(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0D }
        func field(from start: Int) -> Range<Int>? {
            var lower = start
            while lower < line.count, isGap(line[lower]) { lower += 1 }
            guard lower < line.count else { return nil }
            var upper = lower
            while upper < line.count, !isGap(line[upper]) { upper += 1 }
            return lower..<upper
        }
        guard let firstRange = field(from: 0) else { return }
        guard let secondRange = field(from: firstRange.upperBound) else {
            throw InputError(.line(path, number), .expected("two numbers `time_s Mbit/s`", found: "one"))
        }
        let first = UnsafeBufferPointer(rebasing: line[firstRange])
        let second = UnsafeBufferPointer(rebasing: line[secondRange])
        guard let time = DecimalText.double(first), time.isFinite else {
            throw InputError(
                .line(path, number),
                .isNot("a number", subject: "the time", found: "'\(String(decoding: first, as: UTF8.self))'"))
        }
        guard let rate = DecimalText.double(second) else {
            throw InputError(
                .line(path, number),
                .isNot("a number", subject: "the throughput", found: "'\(String(decoding: second, as: UTF8.self))'"))
        }
        times.append(time)
        rates.append(rate)
    }
}
