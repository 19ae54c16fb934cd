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
