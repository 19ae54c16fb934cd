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
            throw InputError(file: file, "a cooked trace needs at least two lines `time_s Mbit/s`")
        }
        for index in 1..<times.count where !(times[index] > times[index - 1]) {
            throw InputError.atLine(file ?? name, index + 1, "time \(times[index]) s does not increase")
        }
        for (index, rate) in bandwidthsMbps.enumerated() where !(rate.isFinite && rate >= 0) {
            throw InputError.atLine(file ?? name, index + 1, "throughput must be a finite number ≥ 0, found \(rate)")
        }
        guard bandwidthsMbps.dropFirst().contains(where: { $0 > 0 }) else {
            throw InputError(file: file, "every interval of the trace has zero throughput: no chunk would arrive")
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
        while let raw = try reader.nextLine() {
            let fields = raw.split(whereSeparator: { $0 == 0x20 || $0 == 0x09 || $0 == 0x0D })
            if fields.isEmpty { continue }
            guard fields.count >= 2 else {
                throw InputError.atLine(path, reader.lineNumber, "expected two numbers `time_s Mbit/s`")
            }
            // Swift's Double(String) rounds the decimal correctly, as Python's float() does.
            guard let time = Double(String(decoding: fields[0], as: UTF8.self)), time.isFinite else {
                throw InputError.atLine(path, reader.lineNumber, "the time is not a number")
            }
            guard let rate = Double(String(decoding: fields[1], as: UTF8.self)) else {
                throw InputError.atLine(path, reader.lineNumber, "the throughput is not a number")
            }
            times.append(time)
            rates.append(rate)
        }
        return try PensieveCookedTrace(
            name: InputFile.fileName(of: path), times: times, bandwidthsMbps: rates, file: path)
    }
}
