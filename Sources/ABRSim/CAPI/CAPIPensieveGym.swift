/// `n` ``PensieveGymEnvironment``s behind one C handle, for `abrsim.gym.PensieveEnv` (n = 1) and
/// `abrsim.gym.VectorABREnv`. Environment `i` starts on trace `i mod traces`. The vector step follows Gymnasium's
/// next-step autoreset: an environment whose episode ended is reset by the following vector step (its action
/// ignored, state zeros, reward 0). Owned by the caller through `abrsim_pensieve_create`/`_destroy`; one thread
/// at a time.
final class PensieveGymHandle {
    var environments: [PensieveGymEnvironment]
    var needsReset: [Bool]

    init(traces: [PensieveCookedTrace], content: Content, count: Int) throws {
        var environments: [PensieveGymEnvironment] = []
        for index in 0..<count {
            let rotated = Array(traces[(index % traces.count)...] + traces[..<(index % traces.count)])
            environments.append(try PensieveGymEnvironment(traces: rotated, content: content))
        }
        self.environments = environments
        needsReset = Array(repeating: false, count: count)
    }

    static func from(_ pointer: UnsafeMutableRawPointer) -> PensieveGymHandle {
        Unmanaged<PensieveGymHandle>.fromOpaque(pointer).takeUnretainedValue()
    }
}

/// Values `abrsim_pensieve_step` writes to its `info` array, in this order.
enum PensieveGymInfo {
    static let count = 9
    static func write(_ step: PensieveGymEnvironment.Step, to info: UnsafeMutablePointer<Double>) {
        info[0] = step.delayMs
        info[1] = step.sleepMs
        info[2] = step.bufferSeconds
        info[3] = step.rebufferSeconds
        info[4] = step.chunkBytes
        info[5] = Double(step.chunksLeft)
        info[6] = step.timeStampMs
        info[7] = step.bitrateKbps
        info[8] = step.reward
    }
}

/// Creates `count` Pensieve environments over the traces named one per line in `tracePaths` (in episode order)
/// with the video in `videoFolder` (`video_size_0` …). Stores the handle in `handle`; on failure returns a
/// ``CAPIStatus`` with the message (file and line) in `message`.
@_cdecl("abrsim_pensieve_create")
public func abrsim_pensieve_create(
    _ tracePaths: UnsafePointer<CChar>?, _ videoFolder: UnsafePointer<CChar>?, _ count: Int64,
    _ handle: UnsafeMutablePointer<UnsafeMutableRawPointer?>?,
    _ message: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?, _ errorLength: UnsafeMutablePointer<Int>?
) -> Int32 {
    do {
        let paths = try CAPIResult.string(tracePaths, "trace_folder").split(separator: "\n").map(String.init)
        guard !paths.isEmpty else { throw InputError(.named("trace_folder"), .empty("folder", no: "trace")) }
        guard count >= 1 else {
            throw InputError(.named("num_envs"), .mustBe(nil, rule: "at least 1", found: "\(count)"))
        }
        let traces = try paths.map { try PensieveProfile.loadTrace(path: $0) }
        let content = try PensieveProfile.loadContent(folder: try CAPIResult.string(videoFolder, "video_size_folder"))
        let made = try PensieveGymHandle(traces: traces, content: content, count: Int(count))
        handle?.pointee = Unmanaged.passRetained(made).toOpaque()
        return CAPIStatus.success
    } catch {
        return CAPIResult.fail(error, message, errorLength)
    }
}

/// Releases a handle from `abrsim_pensieve_create`.
@_cdecl("abrsim_pensieve_destroy")
public func abrsim_pensieve_destroy(_ handle: UnsafeMutableRawPointer?) {
    guard let handle else { return }
    Unmanaged<PensieveGymHandle>.fromOpaque(handle).release()
}

/// The number of levels each step may choose from.
@_cdecl("abrsim_pensieve_level_count")
public func abrsim_pensieve_level_count(_ handle: UnsafeMutableRawPointer) -> Int64 {
    Int64(PensieveGymHandle.from(handle).environments[0].levelCount)
}

/// Resets environment `index` and writes its state (48 floats) to `state`.
@_cdecl("abrsim_pensieve_reset")
public func abrsim_pensieve_reset(
    _ handle: UnsafeMutableRawPointer, _ index: Int64, _ state: UnsafeMutablePointer<Float>
) {
    let gym = PensieveGymHandle.from(handle)
    let position = Int(index)
    gym.environments[position].reset()
    gym.needsReset[position] = false
    gym.environments[position].state.withUnsafeBufferPointer { state.update(from: $0.baseAddress!, count: $0.count) }
}

/// Steps environment 0 at `level` (the caller has checked 0 ≤ level < level count), the delay times `noise` (1
/// in test mode): writes its state (48 floats)
/// to `state` and ``PensieveGymInfo``'s values to `info`; returns 1 when the episode ended, else 0.
@_cdecl("abrsim_pensieve_step")
public func abrsim_pensieve_step(
    _ handle: UnsafeMutableRawPointer, _ level: Int64, _ noise: Double, _ state: UnsafeMutablePointer<Float>,
    _ info: UnsafeMutablePointer<Double>
) -> Int32 {
    let gym = PensieveGymHandle.from(handle)
    let step = gym.environments[0].step(level: Int(level), noise: noise)
    gym.environments[0].state.withUnsafeBufferPointer { state.update(from: $0.baseAddress!, count: $0.count) }
    PensieveGymInfo.write(step, to: info)
    return step.terminated ? 1 : 0
}

/// Steps every environment once (next-step autoreset, see ``PensieveGymHandle``): `levels` holds one level per
/// environment; writes `count × 48` floats to `states`, one reward and one 0/1 `terminated` per environment.
/// Returns ``CAPIStatus/badInput`` and steps nothing when a level is out of range (the index of the first such
/// environment is stored in `badIndex`).
@_cdecl("abrsim_pensieve_vector_step")
public func abrsim_pensieve_vector_step(
    _ handle: UnsafeMutableRawPointer, _ levels: UnsafePointer<Int64>, _ states: UnsafeMutablePointer<Float>,
    _ rewards: UnsafeMutablePointer<Double>, _ terminated: UnsafeMutablePointer<UInt8>,
    _ badIndex: UnsafeMutablePointer<Int64>
) -> Int32 {
    let gym = PensieveGymHandle.from(handle)
    let count = gym.environments.count
    let levelCount = Int64(gym.environments[0].levelCount)
    for index in 0..<count where !gym.needsReset[index] && !(0..<levelCount).contains(levels[index]) {
        badIndex.pointee = Int64(index)
        return CAPIStatus.badInput
    }
    let cells = PensieveGymEnvironment.cells
    for index in 0..<count {
        if gym.needsReset[index] {
            gym.environments[index].reset()
            gym.needsReset[index] = false
            rewards[index] = 0
            terminated[index] = 0
        } else {
            let step = gym.environments[index].step(level: Int(levels[index]))
            rewards[index] = step.reward
            terminated[index] = step.terminated ? 1 : 0
            gym.needsReset[index] = step.terminated
        }
        gym.environments[index].state.withUnsafeBufferPointer {
            (states + index * cells).update(from: $0.baseAddress!, count: cells)
        }
    }
    return CAPIStatus.success
}

/// The number of samples of trace `trace` (0-based, in the order given to `abrsim_pensieve_create`).
@_cdecl("abrsim_pensieve_trace_samples")
public func abrsim_pensieve_trace_samples(_ handle: UnsafeMutableRawPointer, _ trace: Int64) -> Int64 {
    Int64(PensieveGymHandle.from(handle).environments[0].sampleCount(trace: Int(trace)))
}

/// Starts environment `index`'s next episode on trace `trace` at pointer `pointer` (the caller has checked
/// 0 ≤ trace < trace count and 1 ≤ pointer < its samples), empty buffer: training mode's random draws.
@_cdecl("abrsim_pensieve_start")
public func abrsim_pensieve_start(
    _ handle: UnsafeMutableRawPointer, _ index: Int64, _ trace: Int64, _ pointer: Int64
) {
    PensieveGymHandle.from(handle).environments[Int(index)].startEpisode(trace: Int(trace), pointer: Int(pointer))
}
