import ABRSim

/// `abrsim sabre [sabre's flags]`: a drop-in replacement for `python3 src/sabre.py` (UMass-LIDS/sabre): the same
/// flags and defaults, and the same stdout — the `-v` log, BOLA-E's buffer line and the 24 `name: value` metric
/// lines, formatted as Python formats them. See ``SabreCommandLine`` and docs/sabre-profile.md.
enum SabreCommand {
    static let summary = "sabre (MMSys'18) exactly: python3 src/sabre.py's flags and output"

    static func main(_ arguments: [String]) throws -> Int32 {
        guard let options = try SabreCommandLine.parse(arguments) else {
            writeStandardOutput(SabreCommandLine.usage)
            return 0
        }
        writeStandardOutput(try SabreSimulation.run(options: options).printed)
        return 0
    }
}
