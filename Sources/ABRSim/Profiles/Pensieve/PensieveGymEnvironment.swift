/// Pensieve's reinforcement-learning environment, step by step, as `pensieve-ppo`'s Gymnasium environment presents
/// it in test mode: one episode per trace (the traces in the order given, wrapping round), 48 chunks per episode,
/// each ``step(level:)`` downloads the next chunk at `level` on the ``PensieveProfile`` model (``PensieveEngine``)
/// and returns Pensieve's 6 × 8 state and linear-QoE reward.
///
/// The state (row-major, ``rows`` × ``columns``, float32 as Pensieve stores it): every step each row shifts one
/// column to the left (column 0 wraps to column 7), then row 0 col 7 = bitrate / top bitrate; row 1 col 7 = buffer
/// s / 10; row 2 col 7 = chunk bytes / delay ms / 1000; row 3 col 7 = delay ms / 10 000; row 4 cols 0..5 = the next
/// chunk's sizes, MB (chunk 0's after the last); row 5 col 7 = min(chunks left, 48) / 48. Cells 6 and 7 of row 4
/// keep what the shift left. Reward: q − 4.3 · rebuffer s − |q − q_prev| with q the bitrate in Mbit/s and, on an
/// episode's first step, q_prev = q.
///
/// Made by the C API (``PensieveGymHandle``) for the Python package's `abrsim.gym.PensieveEnv`, and by tests.
/// A value; not shared between threads.
public struct PensieveGymEnvironment {
    /// Rows of the state.
    public static let rows = 6
    /// Columns of the state.
    public static let columns = 8
    /// Cells of the state.
    public static let cells = rows * columns

    /// What one step returned besides the state.
    public struct Step: Equatable, Sendable {
        /// Linear QoE of the chunk.
        public var reward: Double
        /// The episode's last chunk was downloaded.
        public var terminated: Bool
        /// Download time plus RTT, ms.
        public var delayMs: Double
        /// `sleep_time` as Pensieve's simulator returns it, ms.
        public var sleepMs: Double
        /// Buffer after the chunk, s.
        public var bufferSeconds: Double
        /// Rebuffering the chunk caused, s.
        public var rebufferSeconds: Double
        /// The chunk's size, bytes.
        public var chunkBytes: Double
        /// Chunks left in the episode.
        public var chunksLeft: Int
        /// Σ delay + sleep since the last ``reset()``, ms.
        public var timeStampMs: Double
        /// The chunk's bitrate, kbit/s.
        public var bitrateKbps: Double
    }

    private let traces: [PensieveCookedTrace]
    private let sizes: [[Double]]
    private let bitratesKbps: [Double]
    private let topBitrateKbps: Double
    private let chunkCount: Int
    /// The position in `traces` of the current episode's trace.
    public private(set) var traceIndex = 0
    private var engine: PensieveEngine
    private var chunk = 0
    private var lastQuality: Double?
    private var timeStampMs = 0.0
    /// The current state, row-major.
    public private(set) var state = [Float](repeating: 0, count: cells)

    /// The number of levels (variants) a step may ask for.
    public var levelCount: Int { bitratesKbps.count }
    /// The traces' names, in episode order.
    public var traceNames: [String] { traces.map(\.name) }

    /// An environment over `traces` (at least one) with `content`'s sizes (at least
    /// ``PensieveProfile/chunkCount`` segments; the first 48 play).
    public init(traces: [PensieveCookedTrace], content: Content) throws {
        guard !traces.isEmpty else {
            throw InputError(.none, .noneGiven("trace", in: "a Pensieve environment"))
        }
        guard content.segmentCount >= PensieveProfile.chunkCount else {
            throw InputError(
                .none,
                .unsupported(
                    by: "Pensieve's environment", supports: "videos of at least \(PensieveProfile.chunkCount) chunks",
                    found: "\(content.segmentCount)"))
        }
        self.traces = traces
        chunkCount = PensieveProfile.chunkCount
        bitratesKbps = content.variants.map { $0.bitrateBps / 1000 }
        topBitrateKbps = bitratesKbps.max() ?? 1
        sizes = (0..<chunkCount).map { segment in
            (0..<content.variantCount).map { content.sizeBytes(segment: segment, variant: $0) }
        }
        engine = PensieveEngine(trace: traces[0])
    }

    /// Clears the state to zeros and forgets the last bitrate (the next step has no smoothness term), as
    /// `pensieve-ppo`'s `reset` does: the network, buffer and chunk count carry on; a new episode, on the next
    /// trace, begins when the previous one's last chunk is downloaded.
    public mutating func reset() {
        for index in state.indices { state[index] = 0 }
        lastQuality = nil
        timeStampMs = 0
    }

    private mutating func startEpisode(pointer: Int = 1) {
        engine = PensieveEngine(trace: traces[traceIndex], pointer: pointer)
        chunk = 0
    }

    /// The number of samples (lines) of trace `index`.
    public func sampleCount(trace index: Int) -> Int { traces[index].times.count }

    /// Starts a new episode on trace `index` at trace pointer `pointer` (1 ..< its sample count), with an empty
    /// buffer: what Pensieve's training mode does with its random draws after each episode.
    public mutating func startEpisode(trace index: Int, pointer: Int) {
        traceIndex = index
        startEpisode(pointer: pointer)
    }

    /// Downloads the next chunk at `level` (0 ..< ``levelCount``; the caller checks the range), its delay times
    /// `noise` (training mode), and updates ``state``. After the episode's last chunk the next trace is loaded, ready for the next episode.
    public mutating func step(level: Int, noise: Double = 1) -> Step {
        let bytes = sizes[chunk][level]
        let download = engine.download(bytes: bytes, noise: noise)
        timeStampMs += download.delayMs
        timeStampMs += download.sleepMs
        chunk += 1
        let left = chunkCount - chunk
        let terminated = chunk >= chunkCount
        let bitrate = bitratesKbps[level]
        let quality = bitrate / 1000
        let rebufferSeconds = download.rebufferMs / 1000
        let previous = lastQuality ?? quality
        let reward = QoEWeights.score(
            quality: quality, stallSeconds: rebufferSeconds, changes: abs(quality - previous),
            rebufferPenalty: PensieveProfile.rebufferPenalty, smoothnessPenalty: PensieveProfile.smoothnessPenalty)
        lastQuality = quality
        let bufferSeconds = download.bufferMsAfter / 1000
        let step = Step(
            reward: reward, terminated: terminated, delayMs: download.delayMs, sleepMs: download.sleepMs,
            bufferSeconds: bufferSeconds, rebufferSeconds: rebufferSeconds, chunkBytes: bytes, chunksLeft: left,
            timeStampMs: timeStampMs, bitrateKbps: bitrate)
        let nextChunk = terminated ? 0 : chunk
        state.withUnsafeMutableBufferPointer { cells in
            let width = Self.columns
            for row in 0..<Self.rows {
                let base = row * width
                let first = cells[base]
                for column in 0..<(width - 1) { cells[base + column] = cells[base + column + 1] }
                cells[base + width - 1] = first
            }
            cells[width - 1] = Float(bitrate / topBitrateKbps)
            cells[2 * width - 1] = Float(bufferSeconds / 10)
            cells[3 * width - 1] = Float(bytes / download.delayMs / 1000)
            cells[4 * width - 1] = Float(download.delayMs / 1000 / 10)
            for variant in 0..<min(sizes[nextChunk].count, width) {
                cells[4 * width + variant] = Float(sizes[nextChunk][variant] / 1000 / 1000)
            }
            let cap = Double(PensieveProfile.chunkCount)
            cells[6 * width - 1] = Float(min(Double(left), cap) / cap)
        }
        if terminated {
            traceIndex = (traceIndex + 1) % traces.count
            startEpisode()
        }
        return step
    }
}
