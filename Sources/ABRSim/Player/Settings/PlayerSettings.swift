/// A user action at a given time, from the scenario's `actions` list.
public enum PlayerAction: Equatable, Sendable {
    /// Play at the given rate (`AVPlayer.play()` / setting `rate`).
    case play(rate: Double)
    /// Pause (rate 0).
    case pause
    /// Seek to a media time (seconds).
    case seek(to: Double)
    /// Seek relative to the playhead (seconds, negative = back).
    case skip(by: Double)
    /// Change the playback rate; 0 pauses.
    case rate(Double)
    /// Change `networkResourcePriority` (the user taps another tile).
    case networkResourcePriority(NetworkResourcePriority)
    /// Move playback to route `n` (`AVRoutingPlaybackArbiter.preferredParticipantForExternalPlayback`): 0 is
    /// the local shared link, 1… the scenario's external routes, each with its own network.
    case route(Int)
    /// Seek to the live edge (`AVPlayerItem` seeking to its live position): lands at the edge − the configured
    /// offset. Only for live content.
    case seekToLive
}

/// A ``PlayerAction`` and when it happens (simulated seconds).
public struct TimedAction: Equatable, Sendable {
    /// When.
    public var time: Double
    /// What.
    public var action: PlayerAction

    /// An action at `time`.
    public init(time: Double, action: PlayerAction) {
        self.time = time
        self.action = action
    }
}

/// A player's settings, named as in AVFoundation where AVPlayer has the concept.
public struct PlayerSettings: Sendable {
    /// Forward-buffer target the player may use when `preferredForwardBufferDuration` is 0 ("the player
    /// picks"). Apple does not publish AVPlayer's choice; ABRSim assumes 60 s, the same cap as Pensieve's
    /// simulator, and says so wherever it is used.
    public static let automaticForwardBufferDuration = 60.0

    /// `AVPlayerItem.preferredForwardBufferDuration` (seconds); 0 = automatic (see
    /// ``automaticForwardBufferDuration``). The player stops requesting while the buffer is at or above it.
    public var preferredForwardBufferDuration: Double = 0
    /// Largest `preferredForwardBufferDuration` accepted, seconds (a day).
    public static let maximumForwardBufferSeconds = 86_400.0
    /// `AVPlayer.automaticallyWaitsToMinimizeStalling` (default true, as for apps linked on iOS 10 or later):
    /// start and resume only when playback is likely to keep up; when false, start or resume as soon as media
    /// is buffered.
    public var automaticallyWaitsToMinimizeStalling = true
    /// Whether the player is asked to play at its start time (otherwise it waits for a `play` action).
    public var autoplay = true
    /// The rate playback starts at.
    public var initialRate = 1.0
    /// When the player appears (simulated seconds).
    public var startSeconds = 0.0
    /// `AVPlayer.networkResourcePriority` at the start (default `.default`).
    public var networkResourcePriority = NetworkResourcePriority.default
    /// `AVPlayerItem.preferredPeakBitRate` in bit/s; 0 = no limit. Caps the variants the policy may choose (if
    /// no variant is that low, the lowest).
    public var preferredPeakBitRate = 0.0
    /// `AVPlayerItem.preferredMaximumResolution`; `nil` = no limit. Caps the variants the policy may choose to
    /// those whose resolution fits (variants without a resolution always fit).
    public var preferredMaximumResolution: Resolution?
    /// The disk cache the player keeps fetched segments in (`nil`: none).
    public var cache: CacheSettings?
    /// The coordination group (`AVPlaybackCoordinationMedium`) the player belongs to, if any.
    public var coordinationGroup: String?
    /// A limit on the player's own download rate in bit/s (`.infinity` = none): a pacing or app-level limit.
    /// A flow held below its share by it gives the rest of its share to the others.
    public var rateLimitBps = Double.infinity
    /// The request timeout, retry limit and back-off of segment requests.
    public var requests = RequestRetrySettings()
    /// Predicts `isPlaybackLikelyToKeepUp`.
    public var keepUpPredictor: any KeepUpPredictor = PlayThroughPredictor()
    /// The player's own throughput estimate, which its keep-up predictor judges with (its policy keeps its own):
    /// dual EWMA with hls.js's 3 s / 9 s half-lives.
    public var keepUpEstimator: any ThroughputEstimator = DualEWMAEstimator.hlsjs
    /// User actions, in time order.
    public var actions: [TimedAction] = []
    /// How the bytes of its requests arrive (`nil`: the scenario network's model, else ``FluidModel``).
    public var downloadModel: (any DownloadModel)?
    /// How the player plays live content (used only when its content is live; `nil`: the defaults).
    public var live: LivePlaybackSettings?

    /// Default settings.
    public init() {}

    /// The highest variant of `content` these settings allow (never below 0).
    public func maximumVariant(of content: Content) -> Int {
        var highest = 0
        for (index, variant) in content.variants.enumerated() {
            if preferredPeakBitRate > 0 && variant.bitrateBps > preferredPeakBitRate { break }
            if let limit = preferredMaximumResolution, let size = variant.resolution,
                size.width > limit.width || size.height > limit.height
            {
                continue
            }
            highest = index
        }
        return highest
    }

    /// The forward-buffer target in effect (seconds).
    public var forwardBufferTarget: Double {
        preferredForwardBufferDuration > 0 ? preferredForwardBufferDuration : Self.automaticForwardBufferDuration
    }
}

/// Everything needed to put one player in a simulation.
public struct PlayerConfiguration {
    /// The player's id in the scenario (the `player` column of every CSV).
    public var id: String
    /// What it plays.
    public var content: Content
    /// Its ABR policy instance (one per run).
    public var policy: any ABRPolicy
    /// The policy as the user wrote it (the `policy` column).
    public var policyLabel: String
    /// Its settings.
    public var settings: PlayerSettings
    /// The player's own throughput estimate, used by its keep-up predictor (not by its policy, which keeps
    /// its own): the settings' ``PlayerSettings/keepUpEstimator`` unless given.
    public var estimator: any ThroughputEstimator

    /// A player configuration; `estimator` replaces the settings' keep-up estimator.
    public init(
        id: String, content: Content, policy: any ABRPolicy, policyLabel: String, settings: PlayerSettings,
        estimator: (any ThroughputEstimator)? = nil
    ) {
        self.id = id
        self.content = content
        self.policy = policy
        self.policyLabel = policyLabel
        self.settings = settings
        self.estimator = estimator ?? settings.keepUpEstimator
    }
}

/// A player's disk cache: its budget, its read rate, and whether it is the scenario's shared cache.
public struct CacheSettings: Sendable, Equatable {
    /// Budget in bytes.
    public var capacityBytes: Double
    /// Read rate in bit/s.
    public var diskBitsPerSecond: Double
    /// Whether the player uses the one cache shared by every player that says so (its budget and rate are then
    /// the shared cache's).
    public var isShared: Bool

    /// Cache settings.
    public init(capacityBytes: Double, diskBitsPerSecond: Double, isShared: Bool = false) {
        self.capacityBytes = capacityBytes
        self.diskBitsPerSecond = diskBitsPerSecond
        self.isShared = isShared
    }
}
