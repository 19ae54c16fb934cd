/// `capacity.csv`: the shared link's capacity over a run, downsampled for plotting, so that the timeline plot can
/// be redrawn from a run's files alone.
///
/// Columns `t_s,capacity_kbps`. The run's span [0, end] is cut into equal bins (at most ``maximumBins``, none
/// shorter than ``minimumBinSeconds``); each row gives a bin's start and the link's mean capacity over the bin
/// (bits the curve delivers in it ÷ its length, so outages and short bursts keep their share), and a last row at
/// `end` repeats the last value. It describes the scenario's network input (the capacity curve every player
/// shares), not the model's state; external routes are not included. Written by `abrsim run`.
public enum CapacityTable {
    /// `capacity.csv`'s columns: a bin's start (s) and its mean capacity (kbit/s).
    public static let table = CSVSchema<(time: Double, kbps: Double)>([
        .number("t_s") { $0.time }, .number("capacity_kbps") { $0.kbps },
    ])
    /// Most bins in a file (a timeline panel is 800 pixels wide).
    public static let maximumBins = 800
    /// Shortest bin, seconds.
    public static let minimumBinSeconds = 0.1

    /// The mean capacity (kbit/s) of `curve` over consecutive bins covering [0, `end`].
    public static func samples(curve: CapacityCurve, end: Double) -> [(time: Double, kbps: Double)] {
        guard end > 0, end.isFinite else { return [] }
        let count = max(1, Int(min(Double(maximumBins), (end / minimumBinSeconds).rounded(.down))))
        let width = end / Double(count)
        var samples: [(time: Double, kbps: Double)] = []
        samples.reserveCapacity(count + 1)
        for bin in 0..<count {
            let t0 = Double(bin) * width
            let t1 = bin == count - 1 ? end : Double(bin + 1) * width
            samples.append((t0, curve.bits(from: t0, to: t1) / (t1 - t0) / 1000))
        }
        samples.append((end, samples[count - 1].kbps))
        return samples
    }

    /// `capacity.csv` for `curve` over [0, `end`].
    public static func csv(curve: CapacityCurve, end: Double) -> [UInt8] {
        table.csv(samples(curve: curve, end: end))
    }
}
