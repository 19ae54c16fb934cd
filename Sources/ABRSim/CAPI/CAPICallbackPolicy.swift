/// The C functions a caller (the Python package) gives to run its own policies in process.
///
/// `make(policy)` makes a fresh instance of the caller's policy number `policy` (its position in the names passed
/// to `abrsim_run_policies`) for one player of one run and returns its id (≥ 0), or −1 when it cannot.
/// `decide(instance, scalars, bitrates, sizes, history, wait)` is asked for each decision: `scalars` holds
/// ``CallbackPolicy/Scalar``'s values, `bitrates` the ladder (bit/s, lowest first), `sizes` the next segment's
/// size at each variant (bytes), `history` 4 values per completed download (bits, request, first byte, done
/// times); all valid only during the call. It returns the variant (the player clamps it to `0...maxVariant`), or
/// −1 with `wait` set to a wait in seconds, or −2 when the policy failed (the player then fails, as with an
/// external policy that crashed). `release(instance)` is called when the run is done with it.
public typealias CAPIPolicyMake = @convention(c) (Int64) -> Int64
/// See ``CAPIPolicyMake``.
public typealias CAPIPolicyDecide =
    @convention(c) (
        Int64, UnsafePointer<Double>, UnsafePointer<Double>, UnsafePointer<Double>, UnsafePointer<Double>,
        UnsafeMutablePointer<Double>
    ) -> Int64
/// See ``CAPIPolicyMake``.
public typealias CAPIPolicyRelease = @convention(c) (Int64) -> Void

/// A policy whose decisions come from a caller's C function (a Python object's `decide(context)`), one instance
/// per player per run. Made by the registry ``CallbackPolicy/registry(names:make:decide:release:)`` builds.
final class CallbackPolicy: ABRPolicy {
    /// Indexes of the `scalars` array.
    enum Scalar: Int, CaseIterable {
        case time, segmentIndex, bufferSeconds, bufferTargetSeconds, lastVariant, maxVariant, startVariant,
            variantCount, segmentCount, segmentDuration, playbackRate, isAfterSeek, historyCount, playbackState
    }

    private let instance: Int64
    private let decideFunction: CAPIPolicyDecide
    private let releaseFunction: CAPIPolicyRelease
    private var scalars = [Double](repeating: 0, count: Scalar.allCases.count)
    private var sizes: [Double] = []
    private var bitrates: [Double] = []
    private var history: [Double] = []
    private var recorded = 0
    private(set) var failureReason: String?

    init(instance: Int64, decide: CAPIPolicyDecide, release: CAPIPolicyRelease) {
        self.instance = instance
        decideFunction = decide
        releaseFunction = release
    }

    deinit { releaseFunction(instance) }

    func decide(_ context: ABRContext) -> ABRDecision {
        let content = context.content
        let count = content.variantCount
        if bitrates.count != count { bitrates = content.variants.map(\.bitrateBps) }
        let segment = min(context.segmentIndex, content.segmentCount - 1)
        sizes.removeAll(keepingCapacity: true)
        for variant in 0..<count { sizes.append(content.sizeBytes(segment: segment, variant: variant)) }
        let samples = context.history.samples
        while recorded < samples.count {
            let sample = samples[recorded]
            history += [sample.bits, sample.requestTime, sample.firstByteTime, sample.doneTime]
            recorded += 1
        }
        scalars[Scalar.time.rawValue] = context.time
        scalars[Scalar.segmentIndex.rawValue] = Double(context.segmentIndex)
        scalars[Scalar.bufferSeconds.rawValue] = context.bufferSeconds
        scalars[Scalar.bufferTargetSeconds.rawValue] = context.bufferTargetSeconds
        scalars[Scalar.lastVariant.rawValue] = Double(context.lastVariant ?? -1)
        scalars[Scalar.maxVariant.rawValue] = Double(context.maxVariant)
        scalars[Scalar.startVariant.rawValue] = Double(context.startVariant)
        scalars[Scalar.variantCount.rawValue] = Double(count)
        scalars[Scalar.segmentCount.rawValue] = Double(content.segmentCount)
        scalars[Scalar.segmentDuration.rawValue] = content.segmentDurations[segment]
        scalars[Scalar.playbackRate.rawValue] = context.playbackRate
        scalars[Scalar.isAfterSeek.rawValue] = context.isAfterSeek ? 1 : 0
        scalars[Scalar.historyCount.rawValue] = Double(recorded)
        scalars[Scalar.playbackState.rawValue] = Double(Self.stateCode(context.playbackState))
        var wait = 0.0
        let answer = scalars.withUnsafeBufferPointer { scalarBuffer in
            bitrates.withUnsafeBufferPointer { bitrateBuffer in
                sizes.withUnsafeBufferPointer { sizeBuffer in
                    history.withUnsafeBufferPointer { historyBuffer in
                        // An empty array's base address may be nil; the callee reads no element then.
                        let none = UnsafePointer<Double>(bitPattern: MemoryLayout<Double>.alignment)!
                        return decideFunction(
                            instance, scalarBuffer.baseAddress!, bitrateBuffer.baseAddress ?? none,
                            sizeBuffer.baseAddress ?? none, historyBuffer.baseAddress ?? none, &wait)
                    }
                }
            }
        }
        switch answer {
        case 0...: return .variant(Int(clamping: answer))
        case -1 where wait.isFinite && wait > 0: return .wait(seconds: wait)
        case -1:
            failureReason = "the Python policy asked to wait \(wait) s; a wait must be a positive number of seconds"
        default:
            failureReason = failureReason ?? "the Python policy's decide raised an exception"
        }
        return .variant(0)
    }

    /// The code of `state` in the `playbackState` scalar: its position in `PlaybackState`'s cases as listed in
    /// docs/python.md (0 idle, 1 loading, 2 readyToPlay, 3 playing, 4 paused, 5 buffering, 6 ended, 7 failed).
    static func stateCode(_ state: PlaybackState) -> Int {
        switch state {
        case .idle: 0
        case .loading: 1
        case .readyToPlay: 2
        case .playing: 3
        case .paused: 4
        case .buffering: 5
        case .ended: 6
        case .failed: 7
        }
    }

    /// ``registry(names:make:decide:release:)`` for names given one per line, or the built-in policies when
    /// `names` or a function is missing.
    static func registry(
        names: UnsafePointer<CChar>?, make: CAPIPolicyMake?, decide: CAPIPolicyDecide?, release: CAPIPolicyRelease?
    ) throws -> PolicyRegistry {
        guard let names, let make, let decide, let release else { return .builtIn }
        let list = String(cString: names).split(separator: "\n").map(String.init)
        return try registry(names: list, make: make, decide: decide, release: release)
    }

    /// The built-in policies plus one descriptor per name in `names` (no parameters), whose instances come from
    /// `make` and decide through `decide`. A name that is already a built-in policy's is an input error.
    static func registry(
        names: [String], make: CAPIPolicyMake, decide: CAPIPolicyDecide, release: CAPIPolicyRelease
    ) throws -> PolicyRegistry {
        var registry = PolicyRegistry.builtIn
        for (position, name) in names.enumerated() {
            guard registry.descriptor(named: name) == nil else {
                throw InputError(
                    .named("policies"), .mustBe("a policy name", rule: "one no built-in policy has", found: "'\(name)'")
                )
            }
            guard !name.isEmpty, name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" }) else {
                throw InputError(
                    .named("policies"),
                    .mustBe("a policy name", rule: "letters, digits, '-' and '_'", found: "'\(name)'"))
            }
            let index = Int64(position)
            registry.register(
                PolicyDescriptor(name: name, summary: "a Python policy", parameters: []) { arguments, _ in
                    let instance = make(index)
                    guard instance >= 0 else {
                        throw arguments.error(
                            .expected("a policy made by the Python factory", found: "its failure (\(instance))"))
                    }
                    return CallbackPolicy(instance: instance, decide: decide, release: release)
                })
        }
        return registry
    }
}

/// `abrsim_run` with the caller's own policies: `policyNames` holds one name per line, each usable as a policy
/// name in the scenario, whose instances are made and asked through `make`, `decide` and `release` (see
/// ``CAPIPolicyMake``). Everything else as `abrsim_run`.
@_cdecl("abrsim_run_policies")
public func abrsim_run_policies(
    _ path: UnsafePointer<CChar>?, _ json: UnsafePointer<UInt8>?, _ jsonLength: Int,
    _ directory: UnsafePointer<CChar>?, _ label: UnsafePointer<CChar>?, _ seed: Int64,
    _ policyNames: UnsafePointer<CChar>?, _ make: CAPIPolicyMake, _ decide: CAPIPolicyDecide,
    _ release: CAPIPolicyRelease,
    _ out: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?, _ outLength: UnsafeMutablePointer<Int>?
) -> Int32 {
    CAPIResult.call(out, outLength) {
        let (scenario, registry) = try CAPIScenario.load(
            path: path, json: json, jsonLength: jsonLength, directory: directory, label: label, seed: seed,
            policyNames: policyNames, make: make, decide: decide, release: release)
        let report = try ScenarioRunner(registry: registry).run(scenario, seed: seed < 0 ? nil : UInt64(seed))
        return CAPIResult.runTables(report, scenario: scenario)
    }
}
