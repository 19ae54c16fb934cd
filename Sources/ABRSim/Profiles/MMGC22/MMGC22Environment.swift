/// The challenge's `controller.Environment`: the recommendation window of players (the playing clip and the next
/// four), their users' watch times, the network, and `buffer_management`, which performs one decision — a sleep
/// (play for that long) or a chunk download (play while it downloads) — and returns what it cost. Owned by
/// ``MMGC22Session``.
public struct MMGC22Environment: Sendable {
    /// The clips of the feed, in order (each played once).
    public let clips: [MMGC22Clip]
    /// The users' watch times, one per clip (drawn from their seed pairs as each clip is queued in the
    /// challenge; each draw reseeds its generators, so drawing them all first gives the same times).
    public let watchTimes: [MMGC22Retention]
    /// The window: `players[0]` is playing (`play_video_id`), the rest are preloadable.
    public private(set) var players: [MMGC22ClipPlayer] = []
    /// The watch times of the window's clips (`user_models`).
    public private(set) var users: [MMGC22Retention] = []
    /// `start_video_id`: the feed index of `players[0]`.
    public private(set) var startVideoId = 0
    /// `play_video_id`: the clip playing; `clips.count` once the user has left the last.
    public private(set) var playVideoId = 0
    /// `total_watched_len`: the watch times of every clip queued so far, ms.
    public private(set) var totalWatchedMilliseconds = 0.0
    /// `total_downloaded_len`: 1000 ms per chunk downloaded, wasted or not.
    public private(set) var totalDownloadedMilliseconds = 0.0
    private var queuedCount = 0
    private var network: MMGC22Network

    /// A fresh environment (`Environment.__init__`): the first five clips queued.
    public init(clips: [MMGC22Clip], watchTimes: [MMGC22Retention], trace: PensieveCookedTrace) {
        precondition(watchTimes.count >= clips.count, "one watch time per clip")
        self.clips = clips
        self.watchTimes = watchTimes
        network = MMGC22Network(trace: trace)
        for _ in 0..<min(MMGC22Model.windowSize, clips.count) { queueNext() }
    }

    /// `player_op(NEW)`: queues the next clip (if any) and draws its user.
    private mutating func queueNext() {
        guard queuedCount < clips.count else { return }
        let clip = clips[queuedCount]
        players.append(MMGC22ClipPlayer(clip: clip, feedIndex: queuedCount))
        users.append(watchTimes[queuedCount])
        totalWatchedMilliseconds += users[users.count - 1].watchMilliseconds
        queuedCount += 1
    }

    /// `get_wasted_time_ratio`: downloaded ms over watched ms.
    public var downloadWatchRatio: Double { totalDownloadedMilliseconds / totalWatchedMilliseconds }

    /// `play_videos(t)`: plays `t` ms from the head of the window, moving to the next clip whenever the user's
    /// watch time is reached, until `t` is spent, a clip stalls, or the feed ends. Returns the buffer (negative:
    /// the rest of `t` is rebuffering) and the bytes wasted by the clips left.
    mutating func play(_ actionMilliseconds: Double) -> (buffer: Double, wasted: Double) {
        var wasted = 0.0
        var buffer = 0.0
        var action = actionMilliseconds
        while buffer >= 0 && action > 0 {
            let before = players[0].playTimeline
            let remaining = users[0].watchMilliseconds - before
            let played = players[0].play(min(action, remaining))
            buffer = played.buffer
            let actual = played.timeline - before
            action -= actual
            if actual == remaining {
                wasted += players[0].wastedBytes(watchMilliseconds: users[0].watchMilliseconds)
                players.removeFirst()
                users.removeFirst()
                startVideoId += 1
                queueNext()
                playVideoId += 1
            }
            if playVideoId >= clips.count { break }
        }
        if buffer < 0 { buffer = -action }
        return (buffer, wasted)
    }

    /// `buffer_management(video, level, sleep)`: one decision. Throws ``MMGC22PolicyError`` for a chunk past the
    /// clip's end (the challenge raises there too).
    mutating func perform(_ decision: MMGC22Decision) throws -> MMGC22StepOutcome {
        var outcome = MMGC22StepOutcome()
        var buffer: Double
        var wasted: Double
        if decision.sleepMilliseconds > 0 {
            let sleep = decision.sleepMilliseconds.rounded(.towardZero)
            outcome.delayMilliseconds = sleep
            (buffer, wasted) = play(sleep)
            outcome.endOfVideo =
                playVideoId == clips.count ? true : players[playVideoId - startVideoId].remainingChunks == 0
        } else {
            let slot = decision.video - startVideoId
            guard let bytes = players[slot].nextChunkBytes(level: decision.level) else {
                throw MMGC22PolicyError(
                    .outOfRange(
                        what: "a chunk of clip \(decision.video)", bound: "in 0…\(players[slot].chunkCount - 1)",
                        found: "\(players[slot].chunkCounter)"))
            }
            outcome.chunkBytes = bytes
            outcome.chunk = players[slot].chunkCounter
            players[slot].recordRequest(level: decision.level)
            outcome.delayMilliseconds = (network.download(bytes: bytes) + 0.5).rounded(.down)
            (buffer, wasted) = play(outcome.delayMilliseconds)
            totalDownloadedMilliseconds += MMGC22Model.chunkMilliseconds
            if decision.video < startVideoId {
                // The user left this clip while its chunk was in flight: the chunk is wasted (and was already
                // counted once by the clip's own waste when the user left it).
                wasted += bytes
                outcome.endOfVideo = true
                outcome.extraChunk = true
            } else if playVideoId == clips.count {
                outcome.endOfVideo = true
            } else {
                outcome.endOfVideo = players[decision.video - startVideoId].completeDownload()
            }
        }
        outcome.wastedBytes = wasted
        if buffer < 0 { outcome.rebufferMilliseconds = abs(buffer) }
        outcome.playVideoId = playVideoId
        return outcome
    }
}

/// One decision of a preload policy, as the challenge's `Algorithm.run` returns it: the feed index of the clip
/// to download from (the playing one or one of the next four), the level of its next chunk, and a sleep in ms
/// (> 0: play for that long instead of downloading; the clip and level are then ignored).
public struct MMGC22Decision: Sendable, Equatable {
    /// `download_video_id`, a feed index.
    public var video: Int
    /// `bit_rate`, 0 … 2.
    public var level: Int
    /// `sleep_time`, ms.
    public var sleepMilliseconds: Double

    public init(video: Int, level: Int, sleepMilliseconds: Double) {
        self.video = video
        self.level = level
        self.sleepMilliseconds = sleepMilliseconds
    }
}

/// What one decision cost (`buffer_management`'s return): the delay (ms, whole), rebuffering (ms), the chunk's
/// bytes (0 for a sleep), whether the clip is complete, the clip playing after, and the bytes wasted.
public struct MMGC22StepOutcome: Sendable, Equatable {
    /// `delay`: the sleep, or the download's time rounded to whole ms.
    public var delayMilliseconds = 0.0
    /// `rebuf`: the part of the step the playing clip stalled, ms.
    public var rebufferMilliseconds = 0.0
    /// `video_size`: the chunk's bytes (0 for a sleep).
    public var chunkBytes = 0.0
    /// `end_of_video`: the clip downloaded from is complete (or left, or the feed is over).
    public var endOfVideo = false
    /// `play_video_id` after the step.
    public var playVideoId = 0
    /// The bytes this step found wasted (clips left during it, and a chunk that arrived for a clip left).
    public var wastedBytes = 0.0
    /// The chunk index downloaded (downloads only).
    public var chunk: Int? = nil
    /// The user had left the clip before the chunk arrived.
    public var extraChunk = false

    public init() {}
}

/// A policy's decision the challenge would refuse (its `assert`s): a clip outside the window, a level outside
/// 0 … 2, a chunk past the clip's end.
/// Thrown by ``MMGC22Environment`` and ``MMGC22Session`` as they play; ``MMGC22Feed`` turns it into an
/// ``InputError`` at the feed's place.
public struct MMGC22PolicyError: Error, CustomStringConvertible, Equatable, Sendable {
    /// What is wrong with the decision.
    public var problem: InputProblem
    public init(_ problem: InputProblem) { self.problem = problem }
    public var description: String { "preload policy: " + InputErrorMessage.text(of: problem) }
}
