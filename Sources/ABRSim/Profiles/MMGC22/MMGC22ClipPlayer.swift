/// The challenge's `video_player.Player`: one clip's download and play state, which the preload policies read
/// (the challenge passes its five players to `Algorithm.run`). Times in ms, sizes in bytes.
public struct MMGC22ClipPlayer: Sendable {
    /// The clip.
    public let clip: MMGC22Clip
    /// The clip's place in the feed (`video_num`).
    public let feedIndex: Int
    /// `download_chunk_bitrate`: the level of every chunk requested so far, in order.
    public private(set) var downloadedLevels: [Int] = []
    /// `video_chunk_counter`: chunks whose download has completed.
    public private(set) var chunkCounter = 0
    /// `play_timeline`, ms played.
    public private(set) var playTimeline = 0.0
    /// `buffer_size`, ms buffered.
    public private(set) var bufferMilliseconds = 0.0
    /// `preload_size`: bytes of every chunk requested.
    public private(set) var preloadBytes = 0.0

    init(clip: MMGC22Clip, feedIndex: Int) {
        self.clip = clip
        self.feedIndex = feedIndex
    }

    /// `get_chunk_sum`.
    public var chunkCount: Int { clip.chunkCount }
    /// `get_remain_video_num`: chunks not yet downloaded.
    public var remainingChunks: Int { clip.chunkCount - chunkCounter }
    /// `get_play_chunk`: chunks played, fractional.
    public var playChunk: Double { playTimeline / MMGC22Model.chunkMilliseconds }

    /// `get_video_size(level)`: the next chunk's size at `level`, or `nil` past the end (the challenge raises).
    public func nextChunkBytes(level: Int) -> Double? {
        clip.chunkBytes[level].indices.contains(chunkCounter) ? clip.chunkBytes[level][chunkCounter] : nil
    }

    /// `get_undownloaded_video_size(P)`: the sizes of the next `count` chunks at every level.
    public func undownloadedChunkBytes(count: Int) -> [[Double]] {
        (0..<MMGC22Model.levelCount).map({ level in
            (0..<count).map({ clip.chunkBytes[level][chunkCounter + $0] })
        })
    }

    /// `record_download_bitrate`: a request starts.
    mutating func recordRequest(level: Int) {
        downloadedLevels.append(level)
        preloadBytes += clip.chunkBytes[level][chunkCounter]
    }

    /// `video_download`: the chunk arrived; `true` when it was the clip's last.
    mutating func completeDownload() -> Bool {
        bufferMilliseconds += MMGC22Model.chunkMilliseconds
        chunkCounter += 1
        return chunkCounter >= clip.chunkCount
    }

    /// `video_play(t)`: plays up to `t` ms; returns the timeline after and the buffer minus `t` (negative: stall).
    mutating func play(_ milliseconds: Double) -> (timeline: Double, buffer: Double) {
        let buffer = bufferMilliseconds - milliseconds
        playTimeline += min(bufferMilliseconds, milliseconds)
        bufferMilliseconds = max(bufferMilliseconds - milliseconds, 0.0)
        return (playTimeline, buffer)
    }

    /// `bandwidth_waste`: bytes of the requested chunks from ⌈watch / 1000⌉ on (never played).
    func wastedBytes(watchMilliseconds: Double) -> Double {
        let start = Int((watchMilliseconds / MMGC22Model.chunkMilliseconds).rounded(.up))
        var sum = 0.0
        if start < downloadedLevels.count {
            for chunk in start..<downloadedLevels.count { sum += clip.chunkBytes[downloadedLevels[chunk]][chunk] }
        }
        return sum
    }
}
