/// A clip's audience retention curve: the fraction of viewers still watching at each whole second, as the MM'22
/// challenge's `user_ret/<clip>` files give it (`second fraction` per line, the first line `0 1`). The chance of
/// leaving during second k is `fractions[k] − fractions[k+1]`; whoever remains at the last line watches to the end.
/// Read by ``MMGC22Data`` and by ``RetentionCurveSwipeModel``'s callers.
public struct RetentionCurve: Sendable, Equatable {
    /// The times of the lines, s (increasing).
    public var seconds: [Double]
    /// The fractions still watching, non-increasing, each in [0, 1].
    public var fractions: [Double]
    /// The fractions as written (the challenge's `fixed_preload` parses these itself).
    public var text: [String]

    /// A curve from its columns; throws unless the times increase and the fractions never rise and stay ≥ 0,
    /// so that the chances of leaving are ≥ 0 and sum to at most 1. `file` names the source in errors.
    public init(seconds: [Double], fractions: [Double], text: [String]? = nil, file: String = "retention curve") throws
    {
        guard seconds.count == fractions.count, seconds.count >= 2 else {
            throw InputError(
                .file(file),
                .tooFew(
                    "lines `second fraction`", atLeast: 2, found: min(seconds.count, fractions.count),
                    in: "a retention curve"))
        }
        for index in fractions.indices {
            guard fractions[index].isFinite, fractions[index] >= 0 else {
                throw InputError(
                    .line(file, index + 1),
                    .mustBe("the fraction still watching", rule: "a number ≥ 0", found: "\(fractions[index])"))
            }
            guard seconds[index].isFinite else {
                throw InputError(
                    .line(file, index + 1), .mustBe("the time", rule: "a finite number", found: "\(seconds[index])"))
            }
            guard index == 0 || seconds[index] > seconds[index - 1] else {
                throw InputError(
                    .line(file, index + 1),
                    .outOfOrder(
                        "the times", order: "increase", found: "\(seconds[index])", after: "\(seconds[index - 1])"))
            }
            if index > 0, fractions[index] > fractions[index - 1] {
                throw InputError(
                    .line(file, index + 1),
                    .outOfOrder(
                        "a retention curve", order: "never rise", found: "\(fractions[index])",
                        after: "\(fractions[index - 1])"))
            }
        }
        let leaving = fractions[0] - fractions[fractions.count - 1]
        guard leaving <= 1 + 1e-12 else {
            throw InputError(.file(file), .overLimit("the chances of leaving sum to \(leaving)", limit: "1"))
        }
        self.seconds = seconds
        self.fractions = fractions
        self.text = text ?? fractions.map({ "\($0)" })
    }

    /// The chance of leaving during each second but the last: `fractions[k] − fractions[k+1]`.
    public var leaveProbabilities: [Double] {
        (0..<(fractions.count - 1)).map({ fractions[$0] - fractions[$0 + 1] })
    }

    /// Reads a `user_ret` file: two whitespace-separated fields per line, blank lines skipped; errors name the
    /// file and line.
    public static func read(path: String) throws -> RetentionCurve {
        let reader = try LineReader(path: path)
        var seconds: [Double] = []
        var fractions: [Double] = []
        var text: [String] = []
        while let line = try reader.nextString() {
            let fields = line.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\r" })
            if fields.isEmpty { continue }
            guard fields.count >= 2, let second = Double(fields[0]), let fraction = Double(fields[1]) else {
                throw InputError(
                    .line(path, reader.lineNumber), .expected("two numbers `second fraction`", found: "'\(line)'"))
            }
            seconds.append(second)
            fractions.append(fraction)
            text.append(String(fields[1]))
        }
        return try RetentionCurve(seconds: seconds, fractions: fractions, text: text, file: path)
    }
}
