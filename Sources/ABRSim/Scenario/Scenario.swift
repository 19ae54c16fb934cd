/// A study as a scenario file describes it, decoded and validated: the network, the content, the players and
/// their policies, QoE weights, seed. Built by ``ScenarioLoader``; turned into runs by ``ScenarioRunner``.
///
/// Policies are kept as specs, not instances: every run makes fresh instances, so one scenario can be run
/// many times (with other seeds, traces or policies) without state leaking between runs.
public struct Scenario: Sendable {
    /// The scenario's name (`name` key, default the file name without `.json`): the output folder and the
    /// `scenario` column.
    public var name: String
    /// The scenario file's path.
    public var file: String
    /// The `description` key: what the scenario shows, in a sentence or two ("" when absent); shown on the plots'
    /// `index.html`.
    public var descriptionText: String = ""
    /// Seed of every random stream in a run.
    public var seed: UInt64
    /// The network every player shares.
    public var network: NetworkTimeline
    /// A short label for the network (`trace` column): the trace's file name, or the stretches' labels.
    public var networkLabel: String
    /// The players, in file order.
    public var players: [PlayerDescription]
    /// QoE weights for the summaries.
    public var qoe: QoESettings
    /// Stop after this many simulated seconds (`nil`: when every player has ended or failed).
    public var durationSeconds: Double?
    /// How the link is split between players' downloads.
    public var allocation: AllocationStrategy = .weighted
    /// The weight of each `networkResourcePriority` level.
    public var priorityWeights = PriorityWeights()
    /// External playback routes, reachable with `route` actions (route n + 1 in ``PlayerAction/route(_:)``).
    public var routes: [ExternalRoute] = []
    /// The `expect` list: bounds on `summary.csv` metrics that `abrsim check` verifies after a run.
    public var expectations: [MetricExpectation] = []
    /// `abrsim tune`'s settings from the `tune` key (`nil` when absent).
    public var tune: TuneSettings?
    /// The feed (`feed` key, `docs/feed.md`), `nil` for a scenario of players; ``players`` then holds its viewer.
    public var feed: FeedDescription?
    /// Why the run's records would not fit in memory (`nil` when they do): thrown by a run that keeps them.
    public var recordMemoryError: InputError?

    /// Whether a run keeps a record per CMAF chunk whatever takes its other records: a player of chunked live
    /// content keeps each chunk's timing with its totals (`chunks.csv`).
    public var keepsChunkRecords: Bool { players.contains { $0.content.live?.chunkDurationSeconds != nil } }
}

/// An external playback receiver with its own network (`AVRoutingPlaybackArbiter`).
public struct ExternalRoute: Sendable {
    /// Its name in the scenario.
    public var name: String
    /// Its network.
    public var network: NetworkTimeline
}

/// One player of a scenario, before it is instantiated for a run.
public struct PlayerDescription: Sendable {
    /// Its id (`player` column).
    public var id: String
    /// Its content.
    public var content: Content
    /// Its policy as written.
    public var policy: PolicySpec
    /// Where the policy was written (for errors raised when instantiating it).
    public var policyLocation: String
    /// Its settings.
    public var settings: PlayerSettings
}
