/// A preload policy in the challenge's interface (`Algorithm.run`): after every step it sees what the step
/// cost and the recommendation window's players (`players[0]` playing, feed index `outcome.playVideoId`), and
/// names the clip to download from next, the level of its next chunk, and how long to sleep instead. A fresh
/// value per run (the challenge constructs and `Initialize()`s its `Algorithm` per trace). Driven by
/// ``MMGC22Session``.
public protocol MMGC22PreloadPolicy {
    /// The first decision (`run(…, first_step=True)`), before anything is known.
    mutating func firstDecision(players: [MMGC22ClipPlayer]) -> MMGC22Decision
    /// The next decision after a step.
    mutating func decide(after outcome: MMGC22StepOutcome, players: [MMGC22ClipPlayer]) -> MMGC22Decision
}

/// The challenge's built-in policies, by the name `abrsim mmgc22 --algorithm` takes.
public enum MMGC22Algorithm: String, CaseIterable, Sendable {
    /// `baseline/no_save.py`: download the playing clip to its end with robust MPC, then preload the next clips
    /// 800 kB at a time, round robin.
    case noSave = "no_save"
    /// `quickstart/fix_preload.py`: download the playing clip, then up to 4 chunks of each next clip while the
    /// retention curve says the chunk will likely be watched; levels by buffer.
    case fixedPreload = "fixed_preload"
    /// The repository's template `solution.py`: always sleeps 500 ms (the run ends at the QoE floor).
    case sleepingTemplate = "solution"

    /// A fresh policy of this kind.
    public func makePolicy() -> any MMGC22PreloadPolicy {
        switch self {
        case .noSave: MMGC22NoSave()
        case .fixedPreload: MMGC22FixedPreload()
        case .sleepingTemplate: MMGC22SleepingTemplate()
        }
    }
}

/// The template `solution.py`: `(0, 0, 500.0)` at every step.
public struct MMGC22SleepingTemplate: MMGC22PreloadPolicy {
    public init() {}
    public mutating func firstDecision(players: [MMGC22ClipPlayer]) -> MMGC22Decision {
        MMGC22Decision(video: 0, level: 0, sleepMilliseconds: 500)
    }
    public mutating func decide(after outcome: MMGC22StepOutcome, players: [MMGC22ClipPlayer]) -> MMGC22Decision {
        MMGC22Decision(video: 0, level: 0, sleepMilliseconds: 500)
    }
}

/// `quickstart/fix_preload.py`.
public struct MMGC22FixedPreload: MMGC22PreloadPolicy {
    /// `TAU`, ms.
    static let sleepMilliseconds = 500.0
    /// `PRELOAD_CHUNK_NUM`.
    static let preloadChunks = 4
    /// `RETENTION_THRESHOLD`.
    static let retentionThreshold = 0.65

    public init() {}

    public mutating func firstDecision(players: [MMGC22ClipPlayer]) -> MMGC22Decision {
        MMGC22Decision(video: 0, level: 0, sleepMilliseconds: 0)
    }

    public mutating func decide(after outcome: MMGC22StepOutcome, players: [MMGC22ClipPlayer]) -> MMGC22Decision {
        let playing = outcome.playVideoId
        var video = -1
        if players[0].remainingChunks != 0 {
            video = playing
        } else {
            for seq in 1..<max(1, min(players.count, MMGC22Model.windowSize)) {
                let player = players[seq]
                guard player.chunkCounter < Self.preloadChunks, player.remainingChunks != 0 else { continue }
                let start = Int(player.playChunk)
                let rates = player.clip.retentionText
                let conditional = Double(rates[player.chunkCounter])! / Double(rates[start])!
                if conditional > Self.retentionThreshold {
                    video = playing + seq
                    break
                }
            }
        }
        if video == -1 { return MMGC22Decision(video: playing, level: 0, sleepMilliseconds: Self.sleepMilliseconds) }
        let buffer = players[video - playing].bufferMilliseconds
        let level = buffer > 2000 ? 2 : buffer > 1000 ? 1 : 0
        return MMGC22Decision(video: video, level: level, sleepMilliseconds: 0)
    }
}
