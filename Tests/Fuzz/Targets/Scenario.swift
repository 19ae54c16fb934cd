import ABRSim

/// libFuzzer entry: the bytes as a scenario file, loaded by ``ScenarioLoader`` from a scratch folder laid out like
/// `scenarios/` (`traces/`, `content/` and `../traces/` lead to the small stand-ins `fuzz.sh` prepares), so the
/// paths in the shipped scenarios resolve and the loader goes on to read traces and content.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzScenario(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    ScenarioScratch.prepare
    let path = FuzzScratch.write(data, size, to: "scenarios/fuzz.json")
    expectInputErrorsOnly { _ = try ScenarioLoader().load(path) }
    return 0
}

/// The scratch layout: `scenarios/{traces,content,ci}` and `traces` linking to `$ABRSIM_FUZZ_DATA/{traces,content}`.
enum ScenarioScratch {
    static let prepare: Void = {
        let root = FuzzScratch.dataFolder
        FuzzScratch.makeFolder("scenarios")
        FuzzScratch.link("traces", to: "\(root)/traces")
        FuzzScratch.link("content", to: "\(root)/content")
        FuzzScratch.link("scenarios/traces", to: "\(root)/traces")
        FuzzScratch.link("scenarios/content", to: "\(root)/content")
        FuzzScratch.link("scenarios/policies", to: "\(root)/policies")
    }()
}
