import ABRSimTestSupport
import Foundation
import Testing

@testable import ABRSim

/// Bad settings given on the command line (issue 13, part 6): `--set`, `sweep --grid`, `compare --scenario`,
/// `tune --traces`/`--holdout`/`--aggregate`. Each ends like every other bad input: exit status 2, one line naming
/// the place (the option, or the scenario file and the JSON path the edit reached), nothing written.
extension BadInputCatalogueTests {
    /// A multi-player scenario with players of different priorities (what `tune` needs), from the fixtures folder.
    static let multiview = "../../../scenarios/multiview-priority.json"

    static func set(_ path: String, _ mentions: String...) -> Case {
        Case(
            fixture: "--set \(path)",
            arguments: ["run", "ok/scenario.json", "--set", path, "--out", out + "/results", "--plots", out + "/p"],
            mentions: mentions)
    }

    static func grid(_ axis: String, _ extra: [String] = [], _ mentions: String...) -> Case {
        Case(
            fixture: "--grid \(axis)",
            arguments: ["sweep", "ok/scenario.json", "--grid", axis, "--out", out + "/results"] + extra,
            mentions: mentions)
    }

    static let settingCases: [Case] = [
        // --set: the path cannot be followed, or the value does not decode where it lands.
        set(
            "players[0].nope=1", "ok/scenario.json", "$.players[0]", "unknown key \"nope\"",
            "set by --set players[0].nope=1"),
        set(
            "players[*].automaticallyWaitsToMinimizeStalling=3", "ok/scenario.json",
            "$.players[0].automaticallyWaitsToMinimizeStalling", "expected true or false, found a number"),
        set("players[3].rate=1", "ok/scenario.json", "$.players", "index 3 must be less than the array's length (1)"),
        set("name.first=x", "ok/scenario.json", "$.name", "expected an object, found a string"),
        set("players[x].rate=1", "--set", "bad path 'players[x].rate'", "'[x]' is not [N], [*]"),
        set("players[0].rate", "--set", "expected PATH=VALUE"),
        set("players[0].rate=", "--set", "players[0].rate: missing a value after '='"),
        set("content={\"ladderKbps\": [1,", "--set", "content="),
        set("allocation.strategy=fair", "ok/scenario.json", "$.allocation.strategy", "unknown strategy 'fair'"),
        Case(
            fixture: "--set (check)",
            arguments: ["check", "ok/scenario.json", "--set", "seed=-1", "--junit", out + "/junit.xml"],
            mentions: ["ok/scenario.json", "$.seed", "set by --set seed=-1"]),
        // sweep --grid: a key that cannot vary, an empty or repeated value, a value that does not decode.
        grid("name=a|b", [], "--grid", "name", "so this grid axis changes nothing"),
        grid("description=a|b", [], "--grid", "no run reads 'description'"),
        grid("network.preset=lte|3g", ["--traces", "ok/constant.csv"], "--grid", "--traces replace"),
        grid("players[*].policy=bba|throughput", ["--policies", "bba"], "--grid", "--policies replace"),
        grid("seed=1|2", ["--seed", "3"], "--grid", "--seed fixes the seed"),
        grid("allocation.strategy=equal||strict", [], "--grid", "value 2 of 3 must be non-empty"),
        grid("allocation.strategy=", [], "--grid", "value 1 of 1 must be non-empty"),
        grid("allocation.strategy=equal|equal", [], "--grid", "value 'equal' is given twice"),
        grid(
            "players[*].preferredForwardBufferDuration=30|-1", [], "ok/scenario.json",
            "$.players[0].preferredForwardBufferDuration", "set by --grid"),
        grid("players[0].nope=1|2", [], "ok/scenario.json", "$.players[0]", "unknown key \"nope\""),
        grid("allocation.strategy", [], "--grid", "expected PATH=V1|V2"),
        Case(
            fixture: "--grid twice",
            arguments: [
                "sweep", "ok/scenario.json", "--grid", "seed=1|2", "--grid", "$.seed=3|4", "--out", out + "/results",
            ], mentions: ["--grid", "path '$.seed' is given twice"]),
        // compare --scenario.
        Case(
            fixture: "compare --set without --scenario",
            arguments: [
                "compare", "--traces", "ok/constant.csv", "--content", "ok/movie.json", "--policies", "bba", "--set",
                "seed=2", "--out", out + "/results", "--plots", out + "/plots",
            ], mentions: ["--set: needs --scenario FILE (it edits a scenario)"]),
        Case(
            fixture: "compare --scenario with several players",
            arguments: [
                "compare", "--traces", "ok/constant.csv", "--scenario", multiview, "--policies", "bba", "--out",
                out + "/results", "--plots", out + "/plots",
            ],
            mentions: [
                "multiview-priority.json: $.players: needs --player ID to choose one of its 4 players (main, tile1, tile2, tile3)"
            ]),
        Case(
            fixture: "compare --player unknown",
            arguments: [
                "compare", "--traces", "ok/constant.csv", "--scenario", multiview, "--player", "side", "--policies",
                "bba", "--out", out + "/results", "--plots", out + "/plots",
            ], mentions: ["multiview-priority.json: --player: unknown player 'side' (known: main, tile1, tile2, tile3)"]
        ),
        Case(
            fixture: "compare --scenario --set bad",
            arguments: [
                "compare", "--traces", "ok/constant.csv", "--scenario", "ok/scenario.json", "--set",
                "players[0].rate=fast", "--policies", "bba", "--out", out + "/results", "--plots", out + "/plots",
            ], mentions: ["ok/scenario.json", "$.players[0].rate", "set by --set"]),
        // tune over networks.
        Case(
            fixture: "tune --holdout without --traces",
            arguments: ["tune", multiview, "--holdout", "0.3", "--out", out + "/results"],
            mentions: ["--holdout: needs --traces (it holds out some of them)"]),
        Case(
            fixture: "tune --holdout 1.5",
            arguments: ["tune", multiview, "--traces", "ok/constant.csv", "--holdout", "1.5", "--out", out + "/r"],
            mentions: ["--holdout", "between 0 and 1"]),
        Case(
            fixture: "tune --holdout with one trace",
            arguments: ["tune", multiview, "--traces", "ok/constant.csv", "--holdout", "0.5", "--out", out + "/r"],
            mentions: ["--holdout", "at least two traces"]),
        Case(
            fixture: "tune --aggregate p200",
            arguments: ["tune", multiview, "--traces", "ok/constant.csv", "--aggregate", "p200", "--out", out + "/r"],
            mentions: ["--aggregate", "'p200'"]),
        Case(
            fixture: "tune --traces missing",
            arguments: ["tune", multiview, "--traces", "no-such-trace.csv", "--out", out + "/r"],
            mentions: ["no-such-trace.csv"]),
        Case(
            fixture: "tune --set bad",
            arguments: ["tune", multiview, "--set", "allocation.weights.high=-4", "--out", out + "/r"],
            mentions: ["multiview-priority.json", "$.allocation.weights.high", "set by --set"]),
    ]

    @Test(
        "each bad --set, --grid, --scenario or tune option exits 2 with one line naming the place, nothing written",
        arguments: settingCases)
    func badSettingsExitWithStatusTwoAndOneLineNamingThePlace(_ badCase: Case) throws {
        let scratch = TestPaths.scratch("settings")
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        let arguments = badCase.arguments.map { $0.replacingOccurrences(of: Self.out, with: scratch) }
        let before = try Self.listing(Self.fixtures)
        let outcome = try runABRSim(arguments, in: Self.fixtures)
        Self.expectOneLineError(outcome, mentions: badCase.mentions)
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch).isEmpty, "nothing written")
        #expect(try Self.listing(Self.fixtures) == before, "nothing written beside the inputs")
    }
}
