/// One run of the challenge's `run.py` `test()`: a fresh ``MMGC22Environment`` on one trace with one user, a
/// preload policy driven step by step, the QoE accumulated as `run.py` accumulates it, and the score.
///
/// QoE per download of a chunk that will be watched (index ≤ ⌊watch / 1000⌋): `q/1000 − 1.85·rebuffer/1000 −
/// smooth/1000`, with smooth = |q − q_prev| against the previous chunk of the clip, or for chunk 0 against the
/// last watched chunk of the previous clip as the module-level list `last_chunk_bitrate` holds it. Three quirks
/// are kept: that list outlives the run (``lastChunkLevels`` in and out, so a process's sequence of runs can be
/// replayed); when the last watched chunk of a clip is fetched after the next clip's first chunk, the smoothness
/// term added for it reads `quality` before it is set (so it adds the next clip's first bitrate); a chunk in
/// flight when the user leaves its clip is counted as waste twice. Sleeps add only their rebuffering.
/// Score = QoE − 0.5 · bytes · 8 / 10⁶; a run whose QoE falls below −10⁴ ends with score −10⁹.
public struct MMGC22Session: Sendable {
    /// The clips, in play order.
    public var clips: [MMGC22Clip]
    /// One watch time per clip.
    public var watchTimes: [MMGC22Retention]
    /// The trace.
    public var trace: PensieveCookedTrace

    /// A session whose users are drawn from `seeds` (one pair per clip) as the challenge draws them.
    public init(clips: [MMGC22Clip], seeds: [MMGC22SeedPair], trace: PensieveCookedTrace) {
        precondition(seeds.count >= clips.count, "one seed pair per clip")
        self.init(
            clips: clips, watchTimes: clips.indices.map({ MMGC22Retention(clip: clips[$0], seeds: seeds[$0]) }),
            trace: trace)
    }

    /// A session with the watch times given (hand-computed tests).
    public init(clips: [MMGC22Clip], watchTimes: [MMGC22Retention], trace: PensieveCookedTrace) {
        self.clips = clips
        self.watchTimes = watchTimes
        self.trace = trace
    }

    /// `last_chunk_bitrate` as a fresh process starts it: −1 (unknown) for every clip.
    public static func freshLastChunkLevels(clipCount: Int) -> [Int] { Array(repeating: -1, count: clipCount) }

    /// Runs `policy` to the end of the feed. `lastChunkLevels` is `last_chunk_bitrate` before the run (see
    /// ``freshLastChunkLevels(clipCount:)``); the result holds it after. `recordSteps` keeps every decision.
    public func run(
        policy: inout some MMGC22PreloadPolicy, lastChunkLevels: [Int], recordSteps: Bool = false
    ) throws -> MMGC22SessionResult {
        precondition(watchTimes.count >= clips.count, "one watch time per clip")
        var environment = MMGC22Environment(clips: clips, watchTimes: watchTimes, trace: trace)
        var last = lastChunkLevels
        var result = MMGC22SessionResult()
        let rates = MMGC22Model.bitratesKbps
        var decision = policy.firstDecision(players: environment.players)
        guard (0...2).contains(decision.level), (0...4).contains(decision.video) else {
            throw MMGC22PolicyError(
                .outOfRange(
                    what: "a first decision", bound: "of clip 0…4 and level 0…2",
                    found: "clip \(decision.video) level \(decision.level)"))
        }
        var qoe = 0.0
        var bandwidth = 0.0
        var wasted = 0.0
        while true {
            var quality = 0
            var smooth = 0
            var quirk = 0
            var chunk = -1
            let start = environment.startVideoId
            if decision.sleepMilliseconds == 0 {
                let slot = decision.video - start
                let maxWatchChunk = environment.users[slot].watchChunkCount
                chunk = environment.players[slot].chunkCounter
                if maxWatchChunk >= chunk {
                    if chunk == maxWatchChunk {
                        last[decision.video] = decision.level
                        if slot + 1 < environment.users.count, environment.players[slot + 1].chunkCounter != 0 {
                            // run.py subtracts the next clip's first bitrate from `quality` before setting it.
                            quirk = abs(quality - rates[environment.players[slot + 1].downloadedLevels[0]])
                            smooth += quirk
                        }
                    }
                    quality = rates[decision.level]
                    smooth += Self.smoothness(environment, last, decision.video, chunk, quality)
                    result.playedChunks += 1
                }
            }
            let playBefore = environment.playVideoId
            let outcome = try environment.perform(decision)
            bandwidth += outcome.chunkBytes
            wasted += outcome.wastedBytes
            result.steps += 1
            result.qualitySumKbps += quality
            result.smoothKbps += smooth
            result.smoothNextQuirkKbps += quirk
            result.rebufferMilliseconds += outcome.rebufferMilliseconds
            result.sessionMilliseconds += outcome.delayMilliseconds
            if decision.sleepMilliseconds > 0 {
                result.sleeps += 1
                result.sleepMilliseconds += outcome.delayMilliseconds
            } else {
                result.downloads += 1
                if outcome.extraChunk { result.extraDownloads += 1 }
            }
            if recordSteps {
                result.stepRecords.append(
                    MMGC22StepRecord(
                        playVideoBefore: playBefore, decision: decision, chunk: chunk, qualityKbps: quality,
                        smoothKbps: smooth, smoothNextQuirkKbps: quirk, outcome: outcome))
            }
            qoe +=
                Double(quality) / 1000.0 - MMGC22Model.rebufferWeight * outcome.rebufferMilliseconds / 1000.0
                - Double(smooth) / 1000.0
            if qoe < MMGC22Model.minimumQoE {
                result.abortedAtMinimumQoE = true
                break
            }
            if outcome.playVideoId >= clips.count { break }
            decision = policy.decide(after: outcome, players: environment.players)
            let slot = decision.video - outcome.playVideoId
            guard slot >= 0, slot < environment.players.count else {
                let window = "\(outcome.playVideoId)…\(outcome.playVideoId + environment.players.count - 1)"
                throw MMGC22PolicyError(
                    .outOfRange(
                        what: "a clip", bound: "in the recommendation window \(window)", found: "\(decision.video)"))
            }
            guard decision.sleepMilliseconds > 0 || (0..<MMGC22Model.levelCount).contains(decision.level) else {
                throw MMGC22PolicyError(.outOfRange(what: "a level", bound: "in 0…2", found: "\(decision.level)"))
            }
        }
        result.qoe = qoe
        result.bandwidthUsageBytes = bandwidth
        result.wastedBytes = wasted
        result.downloadWatchRatio = environment.downloadWatchRatio
        result.watchMilliseconds = environment.totalWatchedMilliseconds
        result.score =
            result.abortedAtMinimumQoE
            ? MMGC22Model.abortedScore : qoe - MMGC22Model.bandwidthWeight * bandwidth * 8 / 1_000_000.0
        result.lastChunkLevels = last
        return result
    }

    /// `get_smooth`: |q − q_prev| for chunk `chunk` of clip `video`; 0 for the feed's first chunk or when the
    /// previous clip's last watched level is not known.
    static func smoothness(_ environment: MMGC22Environment, _ last: [Int], _ video: Int, _ chunk: Int, _ quality: Int)
        -> Int
    {
        if video == 0 && chunk == 0 { return 0 }
        let previous: Int
        if chunk == 0 {
            previous = last[video - 1]
            if previous == -1 { return 0 }
        } else {
            previous = environment.players[video - environment.startVideoId].downloadedLevels[chunk - 1]
        }
        return abs(quality - MMGC22Model.bitratesKbps[previous])
    }
}

/// The figures of one run: the five the challenge prints (score, bandwidth usage, QoE, wasted bytes,
/// download/watch ratio) and the components behind them.
public struct MMGC22SessionResult: Sendable, Equatable {
    /// QoE − 0.5 · Mbit downloaded (−10⁹ for a run ended at the QoE floor).
    public var score = 0.0
    /// Bytes of every chunk downloaded.
    public var bandwidthUsageBytes = 0.0
    /// The summed QoE.
    public var qoe = 0.0
    /// Bytes downloaded and never played, as the challenge counts them.
    public var wastedBytes = 0.0
    /// Downloaded ms over watched ms.
    public var downloadWatchRatio = 0.0
    /// Σ bitrate of the chunks counted as watched, kbit/s.
    public var qualitySumKbps = 0
    /// Σ rebuffering, ms.
    public var rebufferMilliseconds = 0.0
    /// Σ smoothness penalty, kbit/s (the quirk's term included).
    public var smoothKbps = 0
    /// The part of ``smoothKbps`` added by the read-before-set term.
    public var smoothNextQuirkKbps = 0
    /// Downloads counted as watched.
    public var playedChunks = 0
    /// Decisions performed.
    public var steps = 0
    /// Chunk downloads.
    public var downloads = 0
    /// Downloads that ended after the user had left their clip.
    public var extraDownloads = 0
    /// Sleeps.
    public var sleeps = 0
    /// Σ sleep, ms.
    public var sleepMilliseconds = 0.0
    /// Σ delay of every decision, ms.
    public var sessionMilliseconds = 0.0
    /// Σ watch time of the clips, ms.
    public var watchMilliseconds = 0.0
    /// The run ended because QoE fell below −10⁴.
    public var abortedAtMinimumQoE = false
    /// `last_chunk_bitrate` after the run.
    public var lastChunkLevels: [Int] = []
    /// Every decision, when asked for.
    public var stepRecords: [MMGC22StepRecord] = []

    public init() {}
}

/// One decision and its cost, for logs and step-by-step checks.
public struct MMGC22StepRecord: Sendable, Equatable {
    /// The clip playing before the decision.
    public var playVideoBefore: Int
    /// The decision.
    public var decision: MMGC22Decision
    /// The chunk index requested (−1 for a sleep).
    public var chunk: Int
    /// The QoE terms, kbit/s.
    public var qualityKbps: Int
    public var smoothKbps: Int
    public var smoothNextQuirkKbps: Int
    /// What it cost.
    public var outcome: MMGC22StepOutcome
}
