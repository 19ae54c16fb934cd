/// One chunk of a ``PensieveProfile`` run, as Pensieve's `test/*.py` log it (and as the reference CSVs in
/// `Tests/Fixtures/reference/pensieve/*_chunks.csv` hold it).
public struct PensieveChunk: Sendable, Equatable {
    /// Chunk index, 0-based.
    public var chunk: Int
    /// The variant fetched (0 = lowest).
    public var variant: Int
    /// Its bitrate, kbit/s.
    public var bitrateKbps: Double
    /// Buffer after the chunk and after any sleep, seconds.
    public var bufferSecondsAfter: Double
    /// Rebuffering this chunk caused, seconds (chunk 0: its whole delay).
    public var rebufferSeconds: Double
    /// The chunk's size, bytes.
    public var chunkSizeBytes: Double
    /// Download time plus the 80 ms RTT, milliseconds.
    public var delayMs: Double
    /// Time slept afterwards to bring the buffer under 60 s, milliseconds, as `fixed_env.py` returns it (the part
    /// of the sleep its loop had not yet consumed when it stopped — Pensieve's own quirk, kept for its clock).
    public var sleepMs: Double
    /// Linear QoE of the chunk: R/1000 − 4.3·rebuffer − |R − R_prev|/1000.
    public var reward: Double
}

/// The result of one ``PensieveProfile/simulate(trace:content:policy:)``: per-chunk rows and Pensieve's totals.
public struct PensieveRun: Sendable, Equatable {
    /// The trace's name.
    public var trace: String
    /// One row per chunk, in order.
    public var chunks: [PensieveChunk]
    /// The "previous bitrate" of chunk 0's smoothness term, kbit/s (Pensieve: 750, the start variant's).
    public var startBitrateKbps: Double

    /// Σ reward, in chunk order.
    public var totalReward: Double { chunks.reduce(0) { $0 + $1.reward } }
    /// Mean bitrate over the chunks, kbit/s.
    public var meanBitrateKbps: Double {
        chunks.isEmpty ? 0 : chunks.reduce(0) { $0 + $1.bitrateKbps } / Double(chunks.count)
    }
    /// Σ rebuffer seconds in chunk order (chunk 0's whole download included).
    public var totalRebufferSeconds: Double { chunks.reduce(0) { $0 + $1.rebufferSeconds } }
    /// Σ |R − R_prev| kbit/s (chunk 0 against the start bitrate).
    public var sumBitrateChangesKbps: Double {
        var total = 0.0
        var previous = startBitrateKbps
        for chunk in chunks {
            total += abs(chunk.bitrateKbps - previous)
            previous = chunk.bitrateKbps
        }
        return total
    }
    /// The number of chunks whose bitrate differs from the previous one's (chunk 0 against the start bitrate).
    public var switchCount: Int {
        var count = 0
        var previous = startBitrateKbps
        for chunk in chunks {
            if chunk.bitrateKbps != previous { count += 1 }
            previous = chunk.bitrateKbps
        }
        return count
    }
    /// The chosen variants, in order.
    public var variants: [Int] { chunks.map(\.variant) }
}
