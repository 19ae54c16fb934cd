/// The line `abrsim run` and `abrsim compare` print under their table when `optimal` is among the policies: how
/// the offline optimum treated waiting, and when its plan is not an upper bound. The commands call it; the
/// wording follows ``OptimalPolicy`` and the Pensieve profile's optimum.
public enum OptimumNote {
    /// The model the optimum ran in.
    public enum Model: Sendable {
        /// The default model: a player with its own `automaticallyWaitsToMinimizeStalling`, alone on its link
        /// or sharing it with `otherPlayers` more.
        case faithful(waitsToMinimizeStalling: Bool, otherPlayers: Int)
        /// Pensieve's chunk-level simulator, which has no waiting.
        case pensieve
    }

    /// One line (with its newline) naming `subject` (e.g. "optimal" or "optimal (player a)").
    public static func line(_ subject: String, model: Model) -> String {
        switch model {
        case .pensieve:
            return "\(subject): Pensieve's model does not wait (playback starts with the first chunk, a stall ends "
                + "when a chunk arrives); the plan was solved and replayed in that model\n"
        case .faithful(let waits, let others):
            var text =
                waits
                ? "\(subject): the player waits to minimize stalling, so the plan also chose when playback starts; "
                    + "it played in a player that starts there and resumes as soon as a segment is in"
                : "\(subject): the player does not wait; the plan starts with the first segment and resumes as soon "
                    + "as a segment is in, as this player does"
            if others > 0 {
                text +=
                    "; the plan assumes the player is alone on the link, so beside \(others) other "
                    + (others == 1 ? "player" : "players") + " it is not an upper bound"
            }
            return text + "\n"
        }
    }
}

extension PolicySpec {
    /// Whether the spec names the offline optimum (`optimal`), which the commands report on apart.
    public var isOfflineOptimum: Bool { name == BuiltInPolicies.optimal.name }
}
