import ABRSim

/// `--set PATH=VALUE` (repeatable): edits the parsed scenario before it is decoded (see ``ScenarioSetting``).
let setOption = OptionSpec.option(
    "set", valueName: "PATH=VALUE",
    help: "edit the scenario before decoding, e.g. players[*].automaticallyWaitsToMinimizeStalling=false",
    isRepeatable: true)

/// The `--set` edits given, in order.
func scenarioSettings(_ parsed: ParsedArguments) throws -> [ScenarioSetting] {
    try parsed.values("set").map { try ScenarioSetting.parse($0) }
}

/// A scenario loader applying the `--set` edits given.
func scenarioLoader(_ parsed: ParsedArguments) throws -> ScenarioLoader {
    ScenarioLoader(settings: try scenarioSettings(parsed))
}

/// Refuses a feed scenario (`docs/feed.md`) in `command`, which runs scenarios of players only.
func refuseFeed(_ scenario: Scenario, command: String) throws {
    guard scenario.feed != nil else { return }
    throw InputError(
        .jsonPath(scenario.file, "$.feed"),
        .notApplicable(
            nil, onlyFor: nil, here: command,
            hint: "it takes a scenario of players; run a feed with abrsim run, compare or sweep: docs/feed.md"))
}

/// Prints each of `warnings` on stderr as `<command>: warning: …`.
func printWarnings(_ warnings: [String], command: String) {
    for warning in warnings { writeStandardError("\(command): warning: \(warning)\n") }
}
