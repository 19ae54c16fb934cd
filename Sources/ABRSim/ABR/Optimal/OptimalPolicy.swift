/// The offline optimum as a policy: replays a plan computed before the run by ``OfflineOptimum`` from the whole
/// future of the network, so a simulation with it reaches the optimum's QoE (DESIGN §2.5: "optimal — an
/// offline dynamic program that knows the future trace and gives the upper bound of the QoE any policy could
/// reach on it"). The offline-optimal baseline follows Pensieve's (Mao et al., SIGCOMM 2017, `sim/dp.cc`: a
/// dynamic program over chunk, discretised buffer and last bitrate), with time added to the state because the
/// link varies (see ``OfflineOptimum``).
///
/// A policy cannot see the future through ``ABRContext``; the registry's factory reads the network, content and
/// settings from ``PolicyEnvironment`` (the scenario runner fills them in) and solves once per player per run.
/// The plan assumes the player is alone on the link. For a player that waits to minimise stalling the plan also
/// says when playback starts, and the policy gives the player ``PlannedStartPredictor`` to wait on: its player
/// starts where the plan says and resumes as soon as a segment is in. A player that does not wait starts at the
/// first segment, as the plan solved for it assumes.
public final class OptimalPolicy: ABRPolicy {
    /// The plan being replayed.
    public let plan: OptimalPlan
    /// The plan's start and resume rule (waiting players only).
    public let keepUpPredictor: (any KeepUpPredictor)?

    /// A policy replaying `plan`; `decidesStart` for a waiting player (the plan was solved with its start).
    public init(plan: OptimalPlan, decidesStart: Bool = false) {
        self.plan = plan
        keepUpPredictor = decidesStart ? PlannedStartPredictor(startSegment: plan.startSegment) : nil
    }

    /// Solves for `content` on `curve` with `settings` and replays the answer: the factory the scenario runner
    /// (through the registry) or a test calls with the network.
    public convenience init(
        curve: CapacityCurve, content: Content, settings: PlayerSettings, scorer: QoEScorer,
        grid: OptimumGrid = OptimumGrid()
    ) throws {
        self.init(
            plan: try OfflineOptimum.solve(
                curve: curve, content: content, settings: settings, scorer: scorer, grid: grid),
            decidesStart: settings.automaticallyWaitsToMinimizeStalling)
    }

    /// The planned variant of the segment asked for (the last planned one past the plan's end), within the cap.
    public func decide(_ context: ABRContext) -> ABRDecision {
        guard !plan.variants.isEmpty else { return .variant(0) }
        let index = min(max(context.segmentIndex, 0), plan.variants.count - 1)
        return .variant(min(plan.variants[index], context.maxVariant))
    }
}

extension BuiltInPolicies {
    /// `optimal`'s parameters; the weights default to the chosen QoE model's.
    enum OptimalParameters {
        static let qoe = Parameter.member(
            "qoe", default: QoEModel.linear, source: "Pensieve dp.cc (linear QoE)", "QoE model to maximise")
        static let rebuffer = Parameter<Double?>.number(
            "rebuffer", defaultNote: "model's", source: "the QoE model (4.3 linear, 2.66 log, 8 hd)",
            "μ per stall second")
        static let smoothness = Parameter<Double?>.number(
            "smoothness", defaultNote: "model's", source: "the QoE model (1)", "λ per unit of |Δq| between segments")
        static let startup = Parameter<Double?>.number(
            "startup", defaultNote: "model's", source: "the QoE model (0)", "μₛ per second of startup")
        static let grid = Parameter.number(
            "grid", default: 0.1, in: .closed(OptimumGrid.finest, OptimumGrid.coarsest), unit: "s",
            source: "Pensieve dp.cc (0.1 s buffer cells)",
            "buffer and time cell of the dynamic program (coarser misses better plans, finer only costs time)")
    }

    /// `optimal(qoe=linear,rebuffer=…,smoothness=1,startup=0,grid=0.1)`.
    static let optimal = PolicyDescriptor(
        name: "optimal",
        summary:
            "offline optimum: a dynamic program over the known future network (upper bound; Pensieve dp); for a "
            + "waiting player it also chooses when playback starts, and plays in a player that starts there and "
            + "resumes as soon as a segment is in",
        parameters: [
            OptimalParameters.qoe, OptimalParameters.rebuffer, OptimalParameters.smoothness, OptimalParameters.startup,
            OptimalParameters.grid,
        ]
    ) { arguments, environment in
        typealias P = OptimalParameters
        guard let curve = environment.curve, let content = environment.content else {
            throw arguments.error(
                .withAdvice(
                    .missingPrerequisite("it", needs: "the network and the content in advance"),
                    advice: "run it from a scenario, or build OptimalPolicy with OfflineOptimum's inputs"))
        }
        let model = try arguments.value(P.qoe)
        var weights = model.defaultWeights
        weights.rebufferPenalty = try arguments.value(P.rebuffer) ?? weights.rebufferPenalty
        weights.smoothnessPenalty = try arguments.value(P.smoothness) ?? weights.smoothnessPenalty
        weights.startupPenalty = try arguments.value(P.startup) ?? weights.startupPenalty
        let step = try arguments.value(P.grid)
        let scorer = QoEScorer(model: model, ladderBps: content.variants.map(\.bitrateBps), weights: weights)
        do {
            return try OptimalPolicy(
                curve: curve, content: content, settings: environment.settings ?? PlayerSettings(), scorer: scorer,
                grid: OptimumGrid(bufferStep: step, timeStep: step))
        } catch let error as InputError {
            throw arguments.error(error.problem)
        }
    }
}
