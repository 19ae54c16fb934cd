import ABRSim

/// A comparison profile with options and outputs of its own (`sabre`, `mmgc22`): `compare --profile NAME` and
/// `sweep --profile NAME` run its command (`main(arguments, sweep)`) instead of their own. Registered by
/// `main.swift`.
struct OwnCommandProfile: ComparisonProfile {
    let name: String
    /// What the command writes, for the error of a caller that asks for run reports.
    let outputs: String
    let main: @Sendable ([String], Bool) throws -> Int32

    func runCommand(_ arguments: [String], sweep: Bool) throws -> Int32? { try main(arguments, sweep) }

    /// Not reached from the command line (``runCommand(_:sweep:)`` always answers): the profile's runs produce
    /// its own figures, not run reports.
    func run(_ plan: ComparisonPlan, registry: PolicyRegistry, jobs: Int) throws -> [RunReport] {
        throw InputError(
            .option("--profile"),
            .unsupported(
                by: "the \(name) profile", supports: "abrsim compare --profile \(name)",
                found: "a call for run reports",
                reason: "it writes \(outputs)"))
    }
}
