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
    /// `optimal(qoe=linear,rebuffer=…,smoothness=1,startup=0,grid=0.1)`.
    static let optimal = PolicyDescriptor(
        name: "optimal",
        summary:
            "offline optimum: a dynamic program over the known future network (upper bound; Pensieve dp); for a "
            + "waiting player it also chooses when playback starts, and plays in a player that starts there and "
            + "resumes as soon as a segment is in",
        parameters: [
            PolicyParameter("qoe", default: "linear", "QoE model to maximise: linear, log, hd"),
            PolicyParameter("rebuffer", default: "model's", "μ per stall second (4.3 linear, 2.66 log, 8 hd)"),
            PolicyParameter("smoothness", default: "1", "λ per unit of |Δq| between segments"),
            PolicyParameter("startup", default: "0", "μₛ per second of startup"),
            PolicyParameter("grid", default: "0.1", "buffer and time cell of the dynamic program, seconds (0.02–0.5)"),
        ]
    ) { arguments, environment in
        guard let curve = environment.curve, let content = environment.content else {
            throw arguments.error(
                "needs the network and the content in advance (run it from a scenario, or build OptimalPolicy "
                    + "with OfflineOptimum's inputs)")
        }
        let model = QoEModel(
            rawValue: try arguments.choice("qoe", default: "linear", among: QoEModel.allCases.map(\.rawValue)))!
        var weights = model.defaultWeights
        weights.rebufferPenalty = try arguments.number("rebuffer", default: weights.rebufferPenalty)
        weights.smoothnessPenalty = try arguments.number("smoothness", default: weights.smoothnessPenalty)
        weights.startupPenalty = try arguments.number("startup", default: weights.startupPenalty)
        let step = try arguments.positive("grid", default: 0.1)
        guard step >= OptimumGrid.finest, step <= OptimumGrid.coarsest else {
            throw arguments.error(
                "grid must be between \(OptimumGrid.finest) and \(OptimumGrid.coarsest) s, got \(step) (coarser cells "
                    + "miss better plans, finer ones only cost time)")
        }
        let scorer = QoEScorer(model: model, ladderBps: content.variants.map(\.bitrateBps), weights: weights)
        do {
            return try OptimalPolicy(
                curve: curve, content: content, settings: environment.settings ?? PlayerSettings(), scorer: scorer,
                grid: OptimumGrid(bufferStep: step, timeStep: step))
        } catch let error as InputError {
            throw arguments.error(error.message)
        }
    }
}
