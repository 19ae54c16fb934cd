/// A batch of the MM'22 challenge's sessions: every algorithm × trace family × trace × user over one data folder,
/// each session played fresh (as `abrsim mmgc22` plays one), in parallel, with the rows in a fixed order whatever
/// the number of threads (algorithm by algorithm, then family, user and trace). Made by
/// `abrsim compare --profile mmgc22` and `abrsim sweep --profile mmgc22`; ``sessionsCSV(_:)`` and
/// ``statistics(_:)`` are their `sessions.csv` and `stats.csv`.
public struct MMGC22Batch: Sendable {
    /// One session of the batch.
    public struct Session: Sendable, Equatable {
        public var algorithm: MMGC22Algorithm
        public var family: String
        public var traceIndex: Int
        public var user: MMGC22Run.User
        /// The `user` column when the session's watch times are given, not drawn (a feed scenario's `fixed`
        /// swipes: `fixed`); `nil`: named by ``user``.
        public var watchLabel: String?

        public init(
            algorithm: MMGC22Algorithm, family: String, traceIndex: Int, user: MMGC22Run.User,
            watchLabel: String? = nil
        ) {
            self.algorithm = algorithm
            self.family = family
            self.traceIndex = traceIndex
            self.user = user
            self.watchLabel = watchLabel
        }

        /// The user as `sessions.csv` names it: `default`, the sample index, `seeds`, or the ``watchLabel``.
        public var userLabel: String {
            if let watchLabel { return watchLabel }
            return switch user {
            case .defaultUser: "default"
            case .sample(let index): String(index)
            case .seeds: "seeds"
            }
        }

        /// What pairs sessions of different algorithms (`family/trace/user`).
        public var pairingKey: String { "\(family)/\(traceIndex)/\(userLabel)" }
    }

    /// One session and its figures.
    public struct Row: Sendable {
        public var session: Session
        public var result: MMGC22SessionResult

        public init(session: Session, result: MMGC22SessionResult) {
            self.session = session
            self.result = result
        }
    }

    /// The challenge's data folder.
    public var dataFolder: String
    /// The algorithms, in the order the rows give them (the first is the baseline of `stats.csv`).
    public var algorithms: [MMGC22Algorithm]
    /// The trace families (``MMGC22Run/families``).
    public var families: [String]
    /// The trace indices of every family; `nil` is every trace the family holds.
    public var traceIndices: [Int]?
    /// The users.
    public var users: [MMGC22Run.User]
    /// Clips per session when not the data's clips once each (``MMGC22Run/clipCount``).
    public var clipCount: Int?

    public init(
        dataFolder: String, algorithms: [MMGC22Algorithm], families: [String], traceIndices: [Int]?,
        users: [MMGC22Run.User], clipCount: Int? = nil
    ) {
        self.dataFolder = dataFolder
        self.algorithms = algorithms
        self.families = families
        self.traceIndices = traceIndices
        self.users = users
        self.clipCount = clipCount
    }

    /// A figure `sessions.csv` and `stats.csv` give per session.
    public struct Metric: Sendable {
        /// The column name (results.csv's, for the figures the challenge prints).
        public var name: String
        /// A count or a sum of integers (written without a fraction).
        public var isIntegral: Bool
        /// The value of a session.
        public var value: @Sendable (MMGC22SessionResult) -> Double
    }

    /// The figures per session, in column order.
    public static let metrics: [Metric] = [
        Metric(name: "score", isIntegral: false, value: { $0.score }),
        Metric(name: "qoe", isIntegral: false, value: { $0.qoe }),
        Metric(name: "bandwidth_usage_bytes", isIntegral: false, value: { $0.bandwidthUsageBytes }),
        Metric(name: "wasted_bytes", isIntegral: false, value: { $0.wastedBytes }),
        Metric(name: "download_watch_ratio", isIntegral: false, value: { $0.downloadWatchRatio }),
        Metric(name: "rebuffer_ms", isIntegral: false, value: { $0.rebufferMilliseconds }),
        Metric(name: "quality_sum_kbps", isIntegral: true, value: { Double($0.qualitySumKbps) }),
        Metric(name: "smooth_kbps", isIntegral: true, value: { Double($0.smoothKbps) }),
        Metric(name: "downloads", isIntegral: true, value: { Double($0.downloads) }),
        Metric(name: "sleeps", isIntegral: true, value: { Double($0.sleeps) }),
        Metric(name: "watch_ms", isIntegral: false, value: { $0.watchMilliseconds }),
    ]

    /// Reads the data and plays every session on up to `jobs` threads. Errors name the file and line, or the
    /// family folder of a trace out of range.
    public func run(jobs: Int) throws -> [Row] {
        let data = try MMGC22Data(folder: dataFolder)
        return try run(data: data, sessions: try sessions(data: data), jobs: jobs)
    }

    /// Plays `chosen` (sessions of ``sessions(data:)``, e.g. one shard of them) on `data`, on up to `jobs` threads.
    public func run(data: MMGC22Data, sessions chosen: [Session], jobs: Int) throws -> [Row] {
        var traces: [String: PensieveCookedTrace] = [:]
        for session in chosen where traces["\(session.family)/\(session.traceIndex)"] == nil {
            traces["\(session.family)/\(session.traceIndex)"] = try data.trace(
                family: session.family, index: session.traceIndex)
        }
        let clips = clipCount.map { MMGC22Feed.cycling(data.clips, count: $0) } ?? data.clips
        let loaded = traces
        let folder = dataFolder
        let count = clipCount
        return try parallelMap(count: chosen.count, jobs: jobs) { index in
            let session = chosen[index]
            let feed = MMGC22Feed(
                clips: clips, trace: loaded["\(session.family)/\(session.traceIndex)"]!,
                viewers: MMGC22Run.viewers(of: session.user, clipCount: count), place: folder)
            return Row(session: session, result: try feed.run(algorithm: session.algorithm))
        }
    }

    /// Every session, in row order; throws for an unknown family, a missing family folder, or a trace index the
    /// family does not have.
    public func sessions(data: MMGC22Data) throws -> [Session] {
        var traceCounts: [String: Int] = [:]
        for family in families {
            guard MMGC22Run.families.contains(family) else {
                throw InputError(
                    .option("--families"),
                    .unknownName(family, kind: "family", known: MMGC22Run.families))
            }
            let count = try data.traceFiles(family: family).count
            traceCounts[family] = count
            for index in traceIndices ?? [] where !(0..<count).contains(index) {
                throw InputError(
                    .file(dataFolder + "/network_traces/" + family),
                    MMGC22Data.traceOutOfRange(index, count: count))
            }
        }
        var sessions: [Session] = []
        for algorithm in algorithms {
            for family in families {
                for user in users {
                    for trace in traceIndices ?? Array(0..<traceCounts[family]!) {
                        sessions.append(Session(algorithm: algorithm, family: family, traceIndex: trace, user: user))
                    }
                }
            }
        }
        return sessions
    }

    /// `sessions.csv`: one row per session (algorithm, family, trace, user, then ``metrics``, then whether the run
    /// ended at the QoE floor), each double as Python's `repr` prints it, counts as integers.
    public static func sessionsCSV(_ rows: [Row]) -> [UInt8] {
        var lines = [(["algorithm", "family", "trace", "user"] + metrics.map(\.name) + ["aborted_min_qoe"])]
        for row in rows {
            lines.append(
                [
                    row.session.algorithm.rawValue, row.session.family, String(row.session.traceIndex),
                    row.session.userLabel,
                ]
                    + metrics.map { metric in
                        let value = metric.value(row.result)
                        return metric.isIntegral ? String(Int(value)) : PythonFormat.repr(value)
                    }
                    + [row.result.abortedAtMinimumQoE ? "1" : "0"])
        }
        return Array(lines.map { $0.joined(separator: ",") + "\n" }.joined().utf8)
    }

    /// `stats.csv`'s statistics: per algorithm and metric, the distribution over the sessions, and the paired
    /// difference against the first algorithm on the same family, trace and user.
    public static func statistics(_ rows: [Row]) -> ComparisonStatistics? {
        guard let baseline = rows.first?.session.algorithm.rawValue else { return nil }
        var samples = ComparisonSamples(metrics: metrics.map(\.name))
        let byName = Dictionary(uniqueKeysWithValues: metrics.map { ($0.name, $0.value) })

        for row in rows {
            samples.add(policy: row.session.algorithm.rawValue, trace: row.session.pairingKey) { name in
                byName[name].map { $0(row.result) }
            }
        }
        return ComparisonStatistics(samples, baseline: baseline)
    }
}
