import ABRSim

#if canImport(Glibc)
    import Glibc
#endif

/// `abrsim`: the command line. Parses the subcommand and hands over to it; every subcommand lives in its own
/// file and returns an exit status. User mistakes (an output folder holding another output included) end with a
/// message on stderr and status 2; an output that cannot be written (read-only or full disk) with status 3.
/// Summaries are closures, so a command's spec is built only when its help or its own run needs it.
let commands: [(name: String, summary: () -> String, run: ([String]) throws -> Int32)] = [
    ("run", { RunCommand.spec.summary }, RunCommand.main),
    ("compare", { CompareCommand.spec.summary }, CompareCommand.main),
    ("plot", { PlotCommand.spec.summary }, PlotCommand.main),
    ("policies", { PoliciesCommand.spec.summary }, PoliciesCommand.main),
    ("bench", { BenchCommand.spec.summary }, BenchCommand.main),
    ("check", { CheckCommand.spec.summary }, CheckCommand.main),
    ("trace", { TraceCommand.spec.summary }, TraceCommand.main),
    ("tune", { TuneCommand.spec.summary }, TuneCommand.main),
    ("sweep", { SweepCommand.spec.summary }, SweepCommand.main),
    ("merge", { MergeCommand.spec.summary }, MergeCommand.main),
    ("model", { ModelCommand.spec.summary }, ModelCommand.main),
    ("sabre", { SabreCommand.summary }, SabreCommand.main),
    ("export", { ExportCommand.spec.summary }, ExportCommand.main),
    ("mmgc22", { MMGC22Command.spec.summary }, MMGC22Command.main),
]

@MainActor func printTopLevelHelp() {
    var text = "abrsim — how will this player, with this ABR policy, behave on this network?\n\n"
    text += "Usage: abrsim COMMAND [options]\n\nCommands:\n"
    for command in commands {
        text += "  " + command.name.padding(toLength: 8) + "  " + command.summary() + "\n"
    }
    text += "\nRun 'abrsim COMMAND --help' for a command's options.\n"
    writeStandardOutput(text)
}

if CommandLine.arguments.count > 1, CommandLine.arguments[1] == PolicyKeeper.argument {
    PolicyKeeper.main(Array(CommandLine.arguments.dropFirst(2)))
}
PolicyKeeper.enable()
Profile.registry.register(
    OwnCommandProfile(name: "sabre", outputs: "sabre.csv", main: SabreBatchCommand.main), name: "sabre")
Profile.registry.register(
    OwnCommandProfile(name: "mmgc22", outputs: "sessions.csv", main: MMGC22BatchCommand.main), name: "mmgc22")
let arguments = Array(CommandLine.arguments.dropFirst())
guard let first = arguments.first, first != "-h", first != "--help", first != "help" else {
    printTopLevelHelp()
    exit(arguments.isEmpty ? 2 : 0)
}
guard let command = commands.first(where: { $0.name == first }) else {
    writeStandardError(
        "abrsim: unknown command '\(VisibleText.escaping(first))' (commands: \(commands.map(\.name).joined(separator: ", ")))\n"
    )
    exit(2)
}
do {
    exit(try command.run(Array(arguments.dropFirst())))
} catch let error as InputError {
    writeStandardError("abrsim \(command.name): \(error)\n")
    exit(2)
} catch let error as OutputError {
    writeStandardError("abrsim \(command.name): cannot write output: \(VisibleText.escaping("\(error)"))\n")
    exit(3)
} catch {
    writeStandardError("abrsim \(command.name): \(VisibleText.escaping("\(error)"))\n")
    exit(1)
}
