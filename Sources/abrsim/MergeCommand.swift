import ABRSim

/// `abrsim merge DIR... --out DIR`: joins the output folders of `abrsim sweep --shard K/N` runs (1/N … N/N) into
/// exactly the folder an unsharded sweep writes (``SweepMerge``).
enum MergeCommand {
    static let spec = CommandSpec(
        name: "abrsim merge", summary: "join the shard folders of a sweep into the files a single sweep writes",
        positionals: [PositionalSpec("DIR", help: "shard output folders (any order)", isVariadic: true)],
        options: [.option("out", valueName: "DIR", help: "merged output folder (required)")])

    static func main(_ arguments: [String]) throws -> Int32 {
        let parsed = try parse(arguments, spec: spec)
        if parsed.helpRequested {
            writeStandardOutput(spec.usage())
            return 0
        }
        guard let out = parsed.value("out") else { throw InputError(location: "--out", "is required") }
        let (runs, shards) = try SweepMerge.merge(parsed.positionalValues("DIR"), into: out)
        writeStandardOutput("merge: \(shards) shards, \(runs) runs; wrote \(out)\n")
        return 0
    }
}
