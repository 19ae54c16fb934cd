/// The `pensieve` profile: Pensieve's chunk-level simulator (Mao, Netravali, Alizadeh, SIGCOMM 2017;
/// hongzimao/pensieve `sim/fixed_env.py`, `test/fixed_env.py`) reproduced operation for operation, so that published
/// baselines (`test/bb.py`, `test/mpc.py`) can be re-run and checked against `Tests/Fixtures/reference/pensieve/`.
///
/// The model (`reference-simulators.md`, Pensieve section): the trace pointer starts at 1 with the clock at
/// t[0]; interval (t[i−1], t[i]] runs at bw[i]·10⁶/8 bytes/s and delivers 0.95 of it as payload; a chunk finishes
/// partway through its last interval; its delay is that time plus an 80 ms RTT that does not advance the trace;
/// buffer in ms: rebuffer = max(delay − buffer, 0), buffer = max(buffer − delay, 0) + 4000; above 60 000 ms the
/// player sleeps ⌈excess/500⌉·500 ms, advancing the trace; at the trace's end the pointer wraps to 1 and the time to
/// 0; 48 chunks; chunk 0 at variant 1 with "previous bitrate" 750; reward per chunk R/1000 − 4.3·rebuffer_s −
/// |R − R_prev|/1000. The default model stays the faithful one: this exists only to reproduce Pensieve.
///
/// Any ``ABRPolicy`` can be driven. Before every chunk after the first it gets an ``ABRContext`` with: the
/// segment index (chunks done), the buffer after the previous chunk (ms / 1000, as Pensieve returns it), the last
/// variant, `maxVariant` the top of the ladder, the content as loaded (all rows of the size files, 49 for Pensieve's
/// video, though 48 play: Pensieve's MPC plans from one row ahead), `time` Pensieve's `time_stamp` / 1000, and the
/// history of samples. Pensieve's controller has no wall clock and measures each chunk as bytes over its whole
/// delay, so each ``ThroughputSample`` is reported in its own frame: request at −0.08 s (the RTT), first byte at 0,
/// last byte at the download's seconds — that way `downloadSeconds` is Pensieve's own double and a policy that
/// adds the latency back in milliseconds gets `fixed_env`'s `delay` exactly. ``policySpecDefaults(_:)`` gives the
/// policies Pensieve's settings. A `.wait(seconds)` decision sleeps like the buffer cap does (trace advances,
/// buffer drains; any shortfall counts as rebuffering of the next chunk) and the policy is asked again.
///
/// ``simulate(trace:content:policy:)`` is a pure function of its inputs (a fresh policy instance per call keeps
/// runs independent, as the reference resets all state per trace): safe to call from many threads at once.
public enum PensieveProfile {
    /// Pensieve's ladder, kbit/s (`VIDEO_BIT_RATE`).
    public static let ladderKbps: [Double] = [300, 750, 1200, 1850, 2850, 4300]
    /// Chunk duration, ms (`VIDEO_CHUNCK_LEN`).
    public static let chunkMilliseconds = 4000.0
    /// Chunks per video (`TOTAL_VIDEO_CHUNCK`).
    public static let chunkCount = 48
    /// The variant of chunk 0 and of the first "previous bitrate" (`DEFAULT_QUALITY`).
    public static let startVariant = 1
    /// Buffer cap, ms (`BUFFER_THRESH`).
    public static let bufferCapMilliseconds = 60_000.0
    /// Sleep quantum above the cap, ms (`DRAIN_BUFFER_SLEEP_TIME`).
    public static let sleepQuantumMilliseconds = 500.0
    /// Fraction of the link rate that carries payload (`PACKET_PAYLOAD_PORTION`).
    public static let payloadFraction = 0.95
    /// Round trip added to every chunk's delay, ms (`LINK_RTT`).
    public static let rttMilliseconds = 80.0
    /// QoE lost per second of rebuffering (`REBUF_PENALTY`).
    public static let rebufferPenalty = 4.3
    /// Weight of |ΔR| in Mbit/s (`SMOOTH_PENALTY`).
    public static let smoothnessPenalty = 1.0

    /// Pensieve's video: `folder/video_size_0` … `video_size_5` (bytes per line, every line kept: 49 for the
    /// Envivio video, of which 48 play), on ``ladderKbps`` with 4 s segments.
    public static func loadContent(folder: String) throws -> Content {
        try PensieveSizes.read(folder: folder, ladderKbps: ladderKbps, segmentSeconds: 4, segments: nil)
    }

    /// A cooked trace, parsed as Pensieve parses it.
    public static func loadTrace(path: String) throws -> PensieveCookedTrace {
        try PensieveCookedTrace.read(path: path)
    }

    /// Pensieve's settings (`test/bb.py`, `test/mpc.py`) of each policy that has some, by the policy's
    /// descriptor: `bba` reservoir 5, cushion 10; `mpc`/`robust-mpc` horizon 5, window 5, penalties 4.3 and 1,
    /// timing total, planning sizes one chunk ahead (`planningSizeOffset=1`).
    static let policyDefaults: [(policy: PolicyDescriptor, parameters: [(String, PolicySpec.Value)])] = {
        let mpc: [(String, PolicySpec.Value)] = [
            ("horizon", .number(5)), ("window", .number(5)), ("rebufferPenalty", .number(rebufferPenalty)),
            ("smoothnessPenalty", .number(smoothnessPenalty)), ("timing", .text("total")),
            ("planningSizeOffset", .number(1)),
        ]
        return [
            (BuiltInPolicies.bba, [("reservoir", .number(5)), ("cushion", .number(10))]),
            (BuiltInPolicies.mpc, mpc), (BuiltInPolicies.robustMPC, mpc),
        ]
    }()

    /// `spec` with Pensieve's settings (``policyDefaults``) for the parameters the user did not give. Other
    /// policies are returned unchanged.
    public static func policySpecDefaults(_ spec: PolicySpec) -> PolicySpec {
        let defaults = policyDefaults.first { $0.policy.name == spec.name }?.parameters ?? []
        var result = spec
        for (name, value) in defaults where !spec.parameters.contains(where: { $0.name == name }) {
            result.parameters.append((name, value))
        }
        return result
    }

    /// Plays `chunkCount` chunks (Pensieve's ``chunkCount`` unless told) of `content` over `trace` with `policy` (a
    /// fresh instance), exactly as
    /// `fixed_env.py` with `test/bb.py`/`test/mpc.py` around it. `content` needs at least ``chunkCount`` segments;
    /// bitrates and sizes come from it (``loadContent(folder:)`` gives Pensieve's).
    public static func simulate(
        trace: PensieveCookedTrace, content: Content, policy: any ABRPolicy,
        chunkCount: Int = PensieveProfile.chunkCount
    ) -> PensieveRun {
        var engine = PensieveEngine(trace: trace)
        let history = ThroughputHistory()
        let bitrates = content.variants.map { $0.bitrateBps / 1000 }
        let top = content.variantCount - 1
        precondition(content.segmentCount >= chunkCount, "the run plays \(chunkCount) chunks")
        let firstVariant = min(startVariant, top)
        var variant = firstVariant
        var lastBitrate = bitrates[firstVariant]
        var returnedBufferSeconds = 0.0
        var clockMs = 0.0
        var rows: [PensieveChunk] = []
        rows.reserveCapacity(chunkCount)
        for chunk in 0..<chunkCount {
            var carriedRebufferMs = 0.0
            if chunk > 0 {
                var asked = 0
                decision: while true {
                    let context = ABRContext(
                        time: clockMs / 1000, segmentIndex: chunk, content: content,
                        bufferSeconds: returnedBufferSeconds, bufferTargetSeconds: bufferCapMilliseconds / 1000,
                        playbackState: .playing, playbackRate: 1, lastVariant: variant, maxVariant: top,
                        startVariant: firstVariant, history: history, isAfterSeek: false)
                    switch policy.decide(context) {
                    case .variant(let chosen):
                        variant = max(0, min(chosen, top))
                        break decision
                    case .wait(let seconds):
                        asked += 1
                        guard asked < 10_000, seconds.isFinite, seconds > 0 else {
                            variant = 0
                            break decision
                        }
                        carriedRebufferMs += engine.wait(milliseconds: seconds * 1000)
                        clockMs += seconds * 1000
                        returnedBufferSeconds = engine.bufferMs / 1000
                    }
                }
            }
            let size = content.sizeBytes(segment: chunk, variant: variant)
            let step = engine.download(bytes: size)
            clockMs += step.delayMs
            clockMs += step.sleepMs
            returnedBufferSeconds = step.bufferMsAfter / 1000
            let rebufferSeconds = (step.rebufferMs + carriedRebufferMs) / 1000
            let bitrate = bitrates[variant]
            // bb.py / mpc.py: VIDEO_BIT_RATE[q] / M_IN_K - REBUF_PENALTY * rebuf - SMOOTH_PENALTY * |ΔR| / M_IN_K
            let reward = LinearQoE.score(
                bitrateSumKbps: bitrate, changeSumKbps: abs(bitrate - lastBitrate), stallSeconds: rebufferSeconds,
                rebufferPenalty: rebufferPenalty, smoothnessPenalty: smoothnessPenalty)
            lastBitrate = bitrate
            rows.append(
                PensieveChunk(
                    chunk: chunk, variant: variant, bitrateKbps: bitrate, bufferSecondsAfter: returnedBufferSeconds,
                    rebufferSeconds: rebufferSeconds, chunkSizeBytes: size, delayMs: step.delayMs,
                    sleepMs: step.sleepMs, reward: reward))
            let sample = ThroughputSample(
                bits: size * 8, requestTime: -rttMilliseconds / 1000, firstByteTime: 0,
                doneTime: step.downloadSeconds)
            history.append(sample, variant: variant)
            if chunk + 1 < chunkCount {
                let context = ABRContext(
                    time: clockMs / 1000, segmentIndex: chunk + 1, content: content,
                    bufferSeconds: returnedBufferSeconds, bufferTargetSeconds: bufferCapMilliseconds / 1000,
                    playbackState: .playing, playbackRate: 1, lastVariant: variant, maxVariant: top,
                    startVariant: firstVariant, history: history, isAfterSeek: false)
                policy.downloadFinished(sample, context: context)
            }
        }
        return PensieveRun(trace: trace.name, chunks: rows, startBitrateKbps: bitrates[firstVariant])
    }
}
