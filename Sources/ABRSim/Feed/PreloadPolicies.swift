/// What a preload policy's factory may use besides its parameters.
public struct PreloadEnvironment {
    /// The folder of the scenario file (working directory of an external policy).
    public var directory: String?
    /// The run's seed.
    public var seed: UInt64
}

/// A registered preload policy: name, declared parameters (``Parameter``, as ABR policies declare theirs), and how
/// to make an instance (one per run).
public typealias PreloadPolicyDescriptor = RegisteredDescriptor<PreloadEnvironment, any PreloadPolicy>

/// The preload policies a feed scenario's `preload` may name (`docs/feed.md`). Read by the feed decoder, which
/// checks a spec, and by ``FeedRun``, which makes an instance per run.
public enum PreloadPolicies {
    /// The built-in policies, in listing order.
    public static let all: [PreloadPolicyDescriptor] = [
        PreloadPolicyDescriptor(
            name: "none", summary: "no preloading: an item downloads only once it plays", parameters: [],
            make: { _, _ in NoPreload() }),
        PreloadPolicyDescriptor(
            name: "chunks", summary: "a fixed number of segments of each of the next items",
            parameters: [FixedChunkPreload.count, FixedChunkPreload.items],
            make: { arguments, _ in
                FixedChunkPreload(
                    count: try arguments.value(FixedChunkPreload.count),
                    items: try arguments.value(FixedChunkPreload.items))
            }),
        PreloadPolicyDescriptor(
            name: "no_save",
            summary:
                "the MM'22 challenge's no_save baseline: once the playing item is loaded, rounds of bytes of the next",
            parameters: [ChallengeNoSavePreload.roundBytes],
            make: { arguments, _ in
                ChallengeNoSavePreload(roundBytes: try arguments.value(ChallengeNoSavePreload.roundBytes))
            }),
        PreloadPolicyDescriptor(
            name: "fixed_preload",
            summary: "the MM'22 challenge's fixed_preload baseline: segments of the next items while retention is high",
            parameters: [
                ChallengeFixedPreload.chunks, ChallengeFixedPreload.retention, ChallengeFixedPreload.sleep,
            ],
            make: { arguments, _ in
                ChallengeFixedPreload(
                    chunks: try arguments.value(ChallengeFixedPreload.chunks),
                    retention: try arguments.value(ChallengeFixedPreload.retention),
                    sleepSeconds: try arguments.value(ChallengeFixedPreload.sleep))
            }),
        PreloadPolicyDescriptor(
            name: "dashlet",
            summary: "Dashlet-style: the segment most likely to be watched next, while that chance is high enough",
            parameters: [DashletPreload.threshold, DashletPreload.decay, DashletPreload.maxChunks],
            make: { arguments, _ in
                DashletPreload(
                    threshold: try arguments.value(DashletPreload.threshold),
                    decay: try arguments.value(DashletPreload.decay),
                    maxChunks: try arguments.value(DashletPreload.maxChunks))
            }),
        PreloadPolicyDescriptor(
            name: "external", summary: "a program answering JSON lines (docs/feed.md)",
            parameters: [ExternalPreloadPolicy.command],
            make: { arguments, environment in
                try ExternalPreloadPolicy(
                    command: try arguments.value(ExternalPreloadPolicy.command) ?? [],
                    directory: environment.directory, arguments: arguments)
            }),
    ]

    /// The descriptor of `spec` after checking its name and parameters; errors name `file` and `location`.
    public static func checked(_ spec: PolicySpec, file: String?, location: String?) throws
        -> PreloadPolicyDescriptor
    {
        guard let descriptor = all.first(where: { $0.name == spec.name }) else {
            throw InputError(
                InputPlace(file: file, position: location.map(InputPlace.Position.init(text:))),
                .unknownName(spec.name, kind: "preload policy", known: all.map(\.name)))
        }
        try PolicyArguments(spec: spec, file: file, location: location).check(against: descriptor.parameters)
        return descriptor
    }

    /// A new instance of `spec`.
    public static func make(
        _ spec: PolicySpec, environment: PreloadEnvironment, file: String?, location: String?
    ) throws -> any PreloadPolicy {
        let descriptor = try checked(spec, file: file, location: location)
        return try descriptor.make(PolicyArguments(spec: spec, file: file, location: location), environment)
    }
}

/// `none`: never preloads.
final class NoPreload: PreloadPolicy {
    func decide(_ view: FeedView) -> PreloadDecision { .idle }
}

/// `chunks(count, items)`: the first `count` segments of each of the next `items` items of the window, nearest
/// item first, from the moment each is known; the ABR policy picks the variants.
final class FixedChunkPreload: PreloadPolicy {
    static let count = Parameter<Int>.count(
        "count", default: 2, in: 1...1000, unit: "segments", source: "issue 17's Reels scenario",
        "segments to preload of each upcoming item")
    static let items = Parameter<Int>.count(
        "items", default: 3, in: 1...1000, unit: "items", source: "issue 17's Reels scenario",
        "how many of the next items to preload (at most the recommendation window)")
    let count: Int
    let items: Int

    init(count: Int, items: Int) {
        self.count = count
        self.items = items
    }

    func decide(_ view: FeedView) -> PreloadDecision {
        for item in view.upcoming.prefix(items) where item.segmentsRequested < count && item.hasSegmentsLeft {
            return .preload(item: item.position, variant: nil)
        }
        return .idle
    }
}

/// The challenge's `no_save` (`baseline/no_save.py`) in the feed: nothing is preloaded until the playing item is
/// fully loaded; then, in rounds, the nearest upcoming item with fewer than `round × roundBytes` bytes loaded gets its
/// next segment (800 kB rounds, `PROLOAD_SIZE`). The ABR policy picks the variants (the challenge's robust MPC is
/// the `robust-mpc` ABR policy).
final class ChallengeNoSavePreload: PreloadPolicy {
    static let roundBytes = Parameter<Double>.number(
        "roundBytes", default: 800_000, unit: "B", source: "PROLOAD_SIZE, baseline/no_save.py",
        "bytes each upcoming item may hold more in each round")
    let roundBytes: Double

    init(roundBytes: Double) { self.roundBytes = roundBytes }

    func decide(_ view: FeedView) -> PreloadDecision {
        guard view.current.isFullyLoaded else { return .idle }
        let open = view.upcoming.filter(\.hasSegmentsLeft)
        guard let most = open.map(\.bytes).max() else { return .idle }
        var round = 1.0
        while round * roundBytes <= most + roundBytes {
            if let item = open.first(where: { $0.bytes < round * roundBytes }) {
                return .preload(item: item.position, variant: nil)
            }
            round += 1
        }
        return .idle
    }
}

/// The challenge's `fixed_preload` (`quickstart/fix_preload.py`) in the feed: once the playing item is fully
/// loaded, the nearest upcoming item with fewer than `chunks` segments whose next segment the viewer reaches with a
/// chance above `retention` gets it, at a variant by that item's buffer (above 2 s the third rung, above 1 s the
/// second, else the lowest, capped at the top); otherwise sleep `sleep` seconds (`TAU`).
final class ChallengeFixedPreload: PreloadPolicy {
    static let chunks = Parameter<Int>.count(
        "chunks", default: 4, in: 1...1000, unit: "segments", source: "PRELOAD_CHUNK_NUM, fix_preload.py",
        "segments to preload of each upcoming item at most")
    static let retention = Parameter<Double>.number(
        "retention", default: 0.65, in: .closed(0, 1), source: "RETENTION_THRESHOLD, fix_preload.py",
        "the chance of reaching the segment above which it is preloaded")
    static let sleep = Parameter<Double>.number(
        "sleep", default: 0.5, unit: "s", source: "TAU, fix_preload.py", "the wait when nothing is preloaded")
    let chunks: Int
    let retention: Double
    let sleepSeconds: Double

    init(chunks: Int, retention: Double, sleepSeconds: Double) {
        self.chunks = chunks
        self.retention = retention
        self.sleepSeconds = sleepSeconds
    }

    func decide(_ view: FeedView) -> PreloadDecision {
        guard view.current.isFullyLoaded else { return .idle }
        for item in view.upcoming where item.segmentsRequested < chunks && item.hasSegmentsLeft {
            let start = item.content.segmentStarts[item.segmentsRequested]
            guard view.watchProbability(item, past: start) > retention else { continue }
            let rung = item.bufferSeconds > 2 ? 2 : (item.bufferSeconds > 1 ? 1 : 0)
            return .preload(item: item.position, variant: min(rung, item.content.variantCount - 1))
        }
        return .sleep(seconds: sleepSeconds)
    }
}

/// Dashlet-style preloading (Li et al., NSDI 2023): of the next segment of each upcoming item, the one most likely
/// to be watched — the chance of watching past its start, times `decay` per item further away — is preloaded while
/// that chance is at least `threshold` and the item holds fewer than `maxChunks` segments; so each item is buffered
/// in proportion to the chance it will be watched. The ABR policy picks the variants.
final class DashletPreload: PreloadPolicy {
    static let threshold = Parameter<Double>.number(
        "threshold", default: 0.5, in: .closed(0, 1), source: "ABRSim", "the least chance worth preloading")
    static let decay = Parameter<Double>.number(
        "decay", default: 0.9, in: .closed(0, 1), source: "ABRSim",
        "the factor on that chance per item further from the playing one")
    static let maxChunks = Parameter<Int>.count(
        "maxChunks", default: 5, in: 1...1000, unit: "segments", source: "ABRSim",
        "segments to preload of each upcoming item at most")
    let threshold: Double
    let decay: Double
    let maxChunks: Int

    init(threshold: Double, decay: Double, maxChunks: Int) {
        self.threshold = threshold
        self.decay = decay
        self.maxChunks = maxChunks
    }

    func decide(_ view: FeedView) -> PreloadDecision {
        var best: (item: Int, chance: Double)?
        var weight = 1.0
        for item in view.upcoming {
            defer { weight *= decay }
            guard item.hasSegmentsLeft, item.segmentsRequested < maxChunks else { continue }
            let start = item.content.segmentStarts[item.segmentsRequested]
            let chance = weight * view.watchProbability(item, past: start)
            if chance > (best?.chance ?? -1) { best = (item.position, chance) }
        }
        guard let best, best.chance >= threshold else { return .idle }
        return .preload(item: best.item, variant: nil)
    }
}
