/// How far `optimal`'s plans under `--profile pensieve` can be from the true optimum, over a set of traces: per
/// trace, the relaxed upper bound (``PensieveOptimum/upperBound(trace:content:chunkCount:)``) less the plan's
/// total reward. `abrsim compare --profile pensieve` prints its ``line`` under the optimum's note.
public struct PensieveOptimumCertificate: Sendable {
    /// Traces certified.
    public var traceCount = 0
    /// Traces where the plan's reward meets the bound (within 1e-9): there the plan is the optimum.
    public var provenCount = 0
    /// The largest bound − reward over the traces (Pensieve's reward units); no policy scores more than this
    /// above the plan on any of them.
    public var largestGap = 0.0

    /// The certificate for the plans whose total rewards `planRewards` gives by trace name, on the Pensieve
    /// traces at `traces` (paths; those without a reward are skipped), over `chunkCount` chunks of `content`.
    public init(
        planRewards: [String: Double], traces: [String], content: Content,
        chunkCount: Int = PensieveProfile.chunkCount, jobs: Int
    ) throws {
        let bounds = try parallelMap(count: traces.count, jobs: jobs) { index -> (String, Double) in
            let trace = try PensieveProfile.loadTrace(path: traces[index])
            return (trace.name, PensieveOptimum.upperBound(trace: trace, content: content, chunkCount: chunkCount))
        }
        for (name, bound) in bounds {
            guard let reward = planRewards[name] else { continue }
            let gap = max(bound - reward, 0)
            traceCount += 1
            largestGap = max(largestGap, gap)
            if gap <= 1e-9 { provenCount += 1 }
        }
    }

    /// One line with its newline; empty when no trace was certified (the optimum failed on every one).
    public var line: String {
        guard traceCount > 0 else { return "" }
        let bound = "the bound without the cap sleep's 500 ms rounding"
        if provenCount == traceCount {
            return "optimal: its plan meets \(bound) on all \(traceCount) traces, so it is the optimum: "
                + "no policy scores more\n"
        }
        return "optimal: its plan meets \(bound) on \(provenCount) of \(traceCount) traces and is within "
            + fixedDecimals(largestGap, 2) + " of it on the others: no policy scores more than that above it\n"
    }
}
