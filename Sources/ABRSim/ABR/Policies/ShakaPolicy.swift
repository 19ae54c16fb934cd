/// Shaka Player's default ABR, `SimpleAbrManager` (reference-players.md §4; shaka-project/shaka-player
/// `lib/abr/simple_abr_manager.js`, `lib/abr/ewma_bandwidth_estimator.js`, defaults from
/// `lib/util/player_configuration.js`).
///
/// `chooseVariant`: walking the allowed variants from the lowest, variant i is kept when
/// rate·bᵢ / `downgradeTarget` ≤ estimate ≤ rate·bᵢ₊₁ / `upgradeTarget` (bᵢ₊₁ = ∞ for the highest allowed); the last
/// one kept wins, the lowest if none. With the defaults (0.95, 0.85) the bands overlap, so this is the highest
/// variant with rate·b ≤ 0.95 × estimate; the upgrade target only bites when set above the downgrade target.
///
/// Timing (`suggestStreams_`, run after every download): the first request takes `chooseVariant` at once. Until the
/// estimator has seen 128 kB (`hasGoodEstimate`) nothing changes; when it first has, the time of the last choice is
/// moved back by `switchInterval − minTimeToSwitch`, so a switch happens right away; afterwards at most one choice
/// per `switchInterval` (8 s). The estimator is ``DualEWMAEstimator/shaka`` (half-lives 2 s and 5 s, downloads under
/// 16 kB skipped, `defaultBandwidthEstimate` 1 Mbit/s until 128 kB). Downloads faster than `cacheLoadThreshold`
/// (5 ms) are not sampled, as cache hits.
///
/// Differences: Shaka samples each progress event of a download (request → event, so the first one includes the
/// time to first byte); here one sample per download, request to last byte (latency included). The Network
/// Information API, dropped-frame bans and resolution restrictions are not modelled; the player's caps play the
/// part of `restrictions`. A paused player (rate 0) chooses as at rate 1, as Shaka's playback rate does not change
/// on pause.
public final class ShakaPolicy: ABRPolicy {
    /// The tunable constants, with Shaka's defaults (`abr.*` in `player_configuration.js`).
    public struct Configuration: Sendable, Equatable {
        /// `abr.switchInterval`: minimum seconds between choices.
        public var switchInterval = Parameters.switchInterval.defaultValue
        /// `abr.minTimeToSwitch`: seconds to wait before the first switch once the estimate is good.
        public var minTimeToSwitch = Parameters.minTimeToSwitch.defaultValue
        /// `abr.bandwidthUpgradeTarget`.
        public var upgradeTarget = Parameters.upgradeTarget.defaultValue
        /// `abr.bandwidthDowngradeTarget`.
        public var downgradeTarget = Parameters.downgradeTarget.defaultValue
        /// `abr.defaultBandwidthEstimate`, bit/s.
        public var defaultBandwidthEstimate = Parameters.defaultBandwidthEstimate.defaultValue
        /// `abr.cacheLoadThreshold` / 1000: downloads quicker than this (s) are not sampled.
        public var cacheLoadThreshold = 0.005

        /// Shaka's defaults.
        public init() {}
    }

    /// The parameters a spec may set (`shaka(switchInterval=4)`), with Shaka's `abr.*` defaults from
    /// `lib/util/player_configuration.js`.
    public enum Parameters {
        public static let switchInterval = Parameter.number(
            "switchInterval", default: 8, in: .nonNegative, unit: "s", source: "Shaka abr.switchInterval",
            "minimum time between switches")
        public static let minTimeToSwitch = Parameter.number(
            "minTimeToSwitch", default: 0, in: .nonNegative, unit: "s", source: "Shaka abr.minTimeToSwitch",
            "time before the first switch once estimated")
        public static let upgradeTarget = Parameter.number(
            "upgradeTarget", default: 0.85, source: "Shaka abr.bandwidthUpgradeTarget",
            "share of the estimate for a higher variant")
        public static let downgradeTarget = Parameter.number(
            "downgradeTarget", default: 0.95, source: "Shaka abr.bandwidthDowngradeTarget",
            "share of the estimate below which a variant is left")
        public static let defaultBandwidthEstimate = Parameter.number(
            "defaultBandwidthEstimate", default: 1_000_000, unit: "bit/s", source: "Shaka abr.defaultBandwidthEstimate",
            "estimate before 128 kB")

        /// Every parameter with the field it sets, in listing order.
        public static let all: [ParameterBinding<Configuration>] = [
            ParameterBinding(switchInterval, \.switchInterval),
            ParameterBinding(minTimeToSwitch, \.minTimeToSwitch),
            ParameterBinding(upgradeTarget, \.upgradeTarget),
            ParameterBinding(downgradeTarget, \.downgradeTarget),
            ParameterBinding(defaultBandwidthEstimate, \.defaultBandwidthEstimate),
        ]
    }

    /// The constants in use.
    public let configuration: Configuration
    private var estimator: DualEWMAEstimator
    private var chosenVariant: Int?
    private var lastTimeChosen = 0.0
    private var startupComplete = false

    /// A policy with `configuration` (Shaka's defaults unless given).
    public init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
        var estimator = DualEWMAEstimator.shaka
        estimator.defaultEstimate = configuration.defaultBandwidthEstimate
        estimator.timing = .includingLatency
        self.estimator = estimator
    }

    /// The bandwidth estimate the choice uses, bit/s.
    public var bandwidthEstimate: Double { estimator.estimate }

    public func decide(_ context: ABRContext) -> ABRDecision {
        if let chosen = chosenVariant, chosen <= context.maxVariant { return .variant(chosen) }
        // First request, or the caps changed under the current choice (Shaka chooses again on new restrictions).
        let chosen = chooseVariant(context)
        return .variant(chosen)
    }

    public func downloadFinished(_ sample: ThroughputSample, context: ABRContext) {
        if sample.totalSeconds >= configuration.cacheLoadThreshold { estimator.add(sample) }
        guard chosenVariant != nil else { return }
        if !startupComplete {
            guard estimator.hasEnoughData else { return }
            startupComplete = true
            lastTimeChosen -= configuration.switchInterval - configuration.minTimeToSwitch
        }
        guard context.time - lastTimeChosen >= configuration.switchInterval else { return }
        _ = chooseVariant(context)
    }

    /// `chooseVariant`: picks by the current estimate among the allowed variants and records the time.
    private func chooseVariant(_ context: ABRContext) -> Int {
        let chosen = Self.variant(
            forEstimate: estimator.estimate, rate: context.playbackRate > 0 ? context.playbackRate : 1,
            content: context.content, maxVariant: context.maxVariant, configuration: configuration)
        chosenVariant = chosen
        lastTimeChosen = context.time
        return chosen
    }

    /// The band rule of `chooseVariant` for an estimate (bit/s) and playback rate, over variants `0...maxVariant`.
    static func variant(
        forEstimate estimate: Double, rate: Double, content: Content, maxVariant: Int, configuration: Configuration
    ) -> Int {
        var chosen = 0
        for index in 0...maxVariant {
            let bandwidth = rate * content.variants[index].bitrateBps
            let next = index < maxVariant ? rate * content.variants[index + 1].bitrateBps : Double.infinity
            if estimate >= bandwidth / configuration.downgradeTarget && estimate <= next / configuration.upgradeTarget {
                chosen = index
            }
        }
        return chosen
    }
}

extension BuiltInPolicies {
    static let shaka = PolicyDescriptor(
        name: "shaka",
        summary: "Shaka Player SimpleAbrManager (highest b ≤ 0.95 × EWMA 2/5 s, one switch per 8 s)",
        parameters: ShakaPolicy.Parameters.all
    ) { arguments, _ in
        var configuration = ShakaPolicy.Configuration()
        try arguments.configure(&configuration, ShakaPolicy.Parameters.all)
        return ShakaPolicy(configuration: configuration)
    }
}
