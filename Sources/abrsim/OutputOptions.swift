import ABRSim

/// `--force`: replace an output folder that holds another output (see ``OutputFolder``).
let forceFlag = OptionSpec.flag(
    "force", help: "replace an output folder that holds another command's or input's output")

/// `[name]` when `folder` is `parent/name` (a plots folder inside the results folder, which the results' manifest
/// then owns), else `[]`.
func ownedSubfolder(_ folder: String, of parent: String) -> [String] {
    var parent = parent
    while parent.count > 1, parent.hasSuffix("/") { parent.removeLast() }
    guard folder.hasPrefix(parent + "/") else { return [] }
    let name = String(folder.dropFirst(parent.count + 1))
    return name.isEmpty || name.contains("/") ? [] : [name]
}

/// The failure reasons of the players of `report` that ended `failed`, as `(player, reason)` pairs, the reason on
/// one line (line breaks shown as `\n`).
func failedPlayers(_ report: RunReport) -> [(player: String, reason: String)] {
    report.players.compactMap { player in
        guard case .failed(let reason) = player.summary.finalState else { return nil }
        return (player.id, reason.split(separator: "\n", omittingEmptySubsequences: false).joined(separator: "\\n"))
    }
}

/// Exit status of a command whose runs all completed and whose output is written: 0, or 1 when `failedRuns` of
/// `runs` had a failed player, said on stderr as `<command>: N of M runs had a failed player (final_state failed in
/// <summary>)`.
func failedRunStatus(_ command: String, failedRuns: Int, runs: Int, summary: String) -> Int32 {
    guard failedRuns > 0 else { return 0 }
    writeStandardError(
        "\(command): \(failedRuns) of \(runs) run\(runs == 1 ? "" : "s") had a failed player "
            + "(final_state failed in \(summary))\n")
    return 1
}

/// The results folder a command reads (positional `RESULTS_DIR`, trailing slashes dropped), for `abrsim plot` and
/// `abrsim export`; an ``InputError`` naming it unless it is a folder.
func resultsFolder(_ parsed: ParsedArguments) throws -> String {
    var results = parsed.positional("RESULTS_DIR")!
    while results.count > 1, results.hasSuffix("/") { results.removeLast() }
    guard InputFile.isDirectory(results) else {
        do { try InputFile.checkReadable(results) } catch let error as InputError
            where error.problem == .unreadable("no such file")
        {
            throw InputError(.file(results), .unreadable("no such folder"))
        }
        throw InputError(.file(results), .expected("a folder", found: "a file"))
    }
    return results
}
