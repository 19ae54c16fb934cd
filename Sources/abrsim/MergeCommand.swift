import ABRSim

/// `abrsim merge DIR... --out DIR`: joins the output folders of `abrsim sweep --shard K/N` runs (1/N … N/N) into
/// exactly the folder an unsharded sweep writes (``SweepMerge``).
enum MergeCommand {
    static let spec = CommandSpec(
        name: "abrsim merge", summary: "join the shard folders of a sweep into the files a single sweep writes",
        positionals: [PositionalSpec("DIR", help: "shard output folders (any order)", isVariadic: true)],
        options: [.option("out", valueName: "DIR", help: "merged output folder (required)"), forceFlag])

    static func main(_ arguments: [String]) throws -> Int32 {
        let parsed = try parse(arguments, spec: spec)
        if parsed.helpRequested {
            writeStandardOutput(spec.usage())
            return 0
        }
        guard let out = parsed.value("out") else { throw InputError(.option("--out"), .required()) }
        let inputs = parsed.positionalValues("DIR")
        guard let first = inputs.first else { throw InputError(.named("merge"), .noneGiven("shard folder")) }
        guard case .valid(let shardManifest) = OutputManifest.read(directory: first) else {
            throw InputError(
                .file(first),
                .expected("a sweep output folder", found: "no valid \(OutputManifest.fileName) in it"))
        }
        let folder = try OutputFolder(out, identity: shardManifest.identity, force: parsed.flag("force"))
        let (runs, shards) = try SweepMerge.merge(inputs, into: out)
        try folder.begin(files: shardManifest.files, folders: shardManifest.folders)
        try folder.finish(files: shardManifest.files, folders: shardManifest.folders)
        writeStandardOutput("merge: \(shards) shards, \(runs) runs; wrote \(out)\n")
        return 0
    }
}
