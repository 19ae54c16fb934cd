/// What one sabre run prints: the lines before the metrics (the `-v` log, BOLA-E's buffer line) and sabre's 24
/// `name: value` metric lines, each value formatted exactly as sabre formats it (`%f`, `%d`, or the literal `0`
/// of an estimate count that stayed zero). Made by ``SabreSimulation/run(options:network:manifest:)``; printed by
/// `abrsim sabre`, written to `sabre.csv` by `compare`/`sweep --profile sabre`.
public struct SabreResult: Sendable {
    /// Sabre's metric names, in print order (the `sabre.csv` columns after `network, movie, abr, options`).
    public static let metricNames = [
        "buffer size", "total played utility", "time average played utility", "total played bitrate",
        "time average played bitrate", "total play time", "total play time chunks", "total rebuffer",
        "rebuffer ratio", "time average rebuffer", "total rebuffer events", "time average rebuffer events",
        "total bitrate change", "time average bitrate change", "total log bitrate change",
        "time average log bitrate change", "time average score", "over estimate count", "over estimate",
        "leq estimate count", "leq estimate", "estimate", "rampup time", "total reaction time",
    ]

    /// Everything printed before the metric lines, newline-terminated lines.
    public var log: String
    /// The metric values as printed, in ``metricNames`` order.
    public var values: [String]

    /// The metric lines, `name: value\n` each.
    public var metricLines: String {
        var text = ""
        for (name, value) in zip(Self.metricNames, values) { text += name + ": " + value + "\n" }
        return text
    }

    /// All of stdout, as `python3 src/sabre.py` prints it.
    public var printed: String { log + metricLines }

    /// The value printed under `name`.
    public func value(_ name: String) -> String? {
        Self.metricNames.firstIndex(of: name).map { values[$0] }
    }
}

extension SabreSimulation {
    /// The printed metrics, computed as sabre's last lines compute them.
    func result() -> SabreResult {
        let f = PythonFormat.percentF
        let toTimeAverage = 1 / (totalPlayTime / segmentTime)
        var values = [
            PythonFormat.percentD(maxBufferSize),
            f(playedUtility), f(playedUtility * toTimeAverage),
            f(playedBitrate), f(playedBitrate * toTimeAverage),
            f(totalPlayTime / 1000), f(totalPlayTime / segmentTime),
            f(rebufferTime / 1000), f(rebufferTime / totalPlayTime), f(rebufferTime / 1000 * toTimeAverage),
            f(Double(rebufferEventCount)), f(Double(rebufferEventCount) * toTimeAverage),
            f(totalBitrateChange), f(totalBitrateChange * toTimeAverage),
            f(totalLogBitrateChange), f(totalLogBitrateChange * toTimeAverage),
            f(toTimeAverage * (playedUtility - options.gammaP * rebufferTime / segmentTime)),
        ]
        if overestimateCount == 0 {
            values += ["0", "0"]
        } else {
            values += [String(overestimateCount), f(overestimateAverage)]
        }
        if goodestimateCount == 0 {
            values += ["0", "0"]
        } else {
            values += [String(goodestimateCount), f(goodestimateAverage)]
        }
        values.append(f(estimateAverage))
        values.append(f((rampupTime ?? Double(manifest.segmentCount) * segmentTime) / 1000))
        values.append(f(totalReactionTime / 1000))
        return SabreResult(log: output, values: values)
    }
}
