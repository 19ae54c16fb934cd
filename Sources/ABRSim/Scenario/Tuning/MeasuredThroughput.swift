/// Per-player throughput measured on real devices, for `abrsim tune --calibrate`: a CSV with a header and the
/// columns `t_s` (seconds since the session began), `player` (a player id of the scenario) and one of
/// `throughput_kbps` (kbit/s) or `observed_bitrate` / `observedBitrate` (bit/s, as in an access log). Other
/// columns are ignored, so an exported access log can be used as it is once it has `t_s` and `player`.
///
/// Read by ``load(_:scenario:)``; errors name the file and the line. Binned and compared with simulated shares
/// by ``ShareFit``.
public struct MeasuredThroughput: Sendable, Equatable {
    /// One measurement: time, the scenario index of the player, throughput in bit/s.
    public struct Sample: Sendable, Equatable {
        /// Seconds since the session began.
        public var time: Double
        /// Index of the player in the scenario.
        public var player: Int
        /// Throughput in bit/s.
        public var bps: Double
    }

    /// The samples in file order.
    public var samples: [Sample]
    /// Scenario indices of the players measured, ascending.
    public var players: [Int]

    /// Reads `path`, resolving player ids against `scenario`.
    public static func load(_ path: String, scenario: Scenario) throws -> MeasuredThroughput {
        let table = try CSVTable.parse(try InputFile.readAll(path), file: path)
        return try parse(table, file: path, scenario: scenario)
    }

    /// Interprets an already parsed table (line numbers assume one line per row, as measurement files have).
    public static func parse(_ table: CSVTable, file: String, scenario: Scenario) throws -> MeasuredThroughput {
        func column(_ names: [String]) -> Int? { names.lazy.compactMap { table.columns.firstIndex(of: $0) }.first }
        guard let timeColumn = column(["t_s"]) else {
            throw InputError(.line(file, 1), .missing("column t_s (expected t_s,player,throughput_kbps)"))
        }
        guard let playerColumn = column(["player"]) else {
            throw InputError(.line(file, 1), .missing("column player (expected t_s,player,throughput_kbps)"))
        }
        let rateColumn: Int
        let scale: Double
        if let index = column(["throughput_kbps"]) {
            rateColumn = index
            scale = 1000
        } else if let index = column(["observed_bitrate", "observedBitrate"]) {
            rateColumn = index
            scale = 1
        } else {
            throw InputError(
                .line(file, 1),
                .missing("column throughput_kbps (or observed_bitrate in bit/s, as in an access log)"))
        }
        let rateName = table.columns[rateColumn]
        let ids = scenario.players.map(\.id)
        var samples: [Sample] = []
        var players = Set<Int>()
        for (offset, row) in table.rows.enumerated() {
            let line = offset + 2
            guard let time = Double(row[timeColumn]), time.isFinite, time >= 0 else {
                throw InputError(.line(file, line), .mustBe("t_s", rule: "a number ≥ 0", found: "'\(row[timeColumn])'"))
            }
            guard let player = ids.firstIndex(of: row[playerColumn]) else {
                throw InputError(
                    .line(file, line),
                    .within("player", .unknownName(row[playerColumn], kind: "player", known: ids)))
            }
            guard let rate = Double(row[rateColumn]), rate.isFinite, rate >= 0 else {
                throw InputError(
                    .line(file, line), .mustBe(rateName, rule: "a number ≥ 0", found: "'\(row[rateColumn])'"))
            }
            samples.append(Sample(time: time, player: player, bps: rate * scale))
            players.insert(player)
        }
        guard players.count >= 2 else {
            throw InputError(
                .file(file),
                .tooFew("measured players", atLeast: 2, found: players.count, in: "fitting their shares"))
        }
        return MeasuredThroughput(samples: samples, players: players.sorted())
    }
}

/// Compares a run's per-player shares of the received bits with measured shares, bin by bin: the least-squares
/// criterion of `abrsim tune --calibrate`.
///
/// Measured: in each bin of ``binSeconds`` where every measured player has at least one sample, each player's
/// mean throughput over the sum of those means. Simulated: each segment's bits spread evenly over its transfer
/// (first byte to done; cache hits excluded), summed per bin, each measured player's bits over the sum for the
/// measured players (0 for all when none received anything). The fit error is the root mean square of the share
/// differences over every (bin, measured player).
public struct ShareFit: Sendable {
    /// The measurements.
    public var measured: MeasuredThroughput
    /// Bin width (seconds).
    public var binSeconds: Double
    /// Measured shares per usable bin: bin index → one share per measured player.
    public let measuredShares: [(bin: Int, shares: [Double])]

    /// Bins the measurements; fails (naming `file`) when no bin has samples of every measured player.
    public init(measured: MeasuredThroughput, binSeconds: Double, file: String) throws {
        self.measured = measured
        self.binSeconds = binSeconds
        var sums: [Int: [Double]] = [:]
        var counts: [Int: [Int]] = [:]
        let slot = Dictionary(uniqueKeysWithValues: measured.players.enumerated().map { ($1, $0) })
        for sample in measured.samples {
            let bin = Int((sample.time / binSeconds).rounded(.down))
            sums[bin, default: Array(repeating: 0, count: slot.count)][slot[sample.player]!] += sample.bps
            counts[bin, default: Array(repeating: 0, count: slot.count)][slot[sample.player]!] += 1
        }
        var shares: [(Int, [Double])] = []
        for bin in sums.keys.sorted() {
            let count = counts[bin]!
            guard count.allSatisfy({ $0 > 0 }) else { continue }
            let means = zip(sums[bin]!, count).map { $0 / Double($1) }
            let total = means.reduce(0, +)
            guard total > 0 else { continue }
            shares.append((bin, means.map { $0 / total }))
        }
        guard !shares.isEmpty else {
            throw InputError(
                .file(file),
                .missing("a \(formatCSVNumber(binSeconds)) s bin with a positive measurement of every measured player"))
        }
        measuredShares = shares
    }

    /// The RMS share difference between `report` and the measurements.
    public func rmsError(_ report: RunReport) -> Double {
        let simulated = simulatedBits(report)
        var squares = 0.0
        var count = 0
        for (bin, shares) in measuredShares {
            let bits = measured.players.map { simulated[$0][bin] ?? 0 }
            let total = bits.reduce(0, +)
            for (index, share) in shares.enumerated() {
                let difference = (total > 0 ? bits[index] / total : 0) - share
                squares += difference * difference
                count += 1
            }
        }
        return (squares / Double(count)).squareRoot()
    }

    /// Bits each player received per bin.
    func simulatedBits(_ report: RunReport) -> [[Int: Double]] {
        report.players.map { player in
            var bins: [Int: Double] = [:]
            for record in player.segments where !record.cacheHit && record.bytes > 0 {
                let start = record.firstByteTime
                let end = record.doneTime
                let bits = record.bytes * 8
                guard end > start else {
                    bins[Int((end / binSeconds).rounded(.down)), default: 0] += bits
                    continue
                }
                var bin = Int((start / binSeconds).rounded(.down))
                while Double(bin) * binSeconds < end {
                    let overlap = min(end, Double(bin + 1) * binSeconds) - max(start, Double(bin) * binSeconds)
                    if overlap > 0 { bins[bin, default: 0] += bits * overlap / (end - start) }
                    bin += 1
                }
            }
            return bins
        }
    }
}
