import ABRSimTestSupport
import Foundation
import Testing

@testable import ABRSim

/// The download models against their authors' own functions (Tests/Fixtures/reference/tcp/, from CausalSim's
/// `thr_slow_start` and Veritas's `capacity_to_throughput_v3_`/`_v7_`): every row through ``DownloadModelTable``
/// (what `abrsim model download` runs), and every row again through a ``SharedLink`` carrying the plan.
@Suite("the download models against their authors' functions")
struct DownloadModelReferenceTests {
    static let folder = TestPaths.packageRoot + "/Tests/Fixtures/reference/tcp/"

    static func table(_ name: String) throws -> CSVTable {
        try CSVTable.parse(try InputFile.readAll(folder + name), file: name)
    }

    /// (reference file, model, the rows' `version` to keep or nil for all)
    static let cases: [(String, String, String?)] = [
        ("causalsim_slowstart.csv", "slow-start", nil), ("veritas.csv", "veritas-v3", "v3"),
        ("veritas.csv", "veritas-v7", "v7"),
    ]

    @Test(
        "every reference row of CausalSim's and Veritas's download functions is matched within 1e-9", arguments: 0..<3)
    func everyRowMatchesTheAuthorsFunctionWithinOneInABillion(_ which: Int) throws {
        let (file, model, version) = Self.cases[which]
        let reference = try Self.table(file)
        let output = try CSVTable.parse(
            try DownloadModelTable.evaluate(reference, file: file, modelName: model), file: "out")
        let time = reference.columns.firstIndex(of: "download_time_s")!
        let branch = reference.columns.firstIndex(of: "branch")
        let versionColumn = reference.columns.firstIndex(of: "version")
        var checked = 0
        for (row, got) in zip(reference.rows, output.rows) {
            if let version, let versionColumn, row[versionColumn] != version { continue }
            let expected = Double(row[time])!
            let actual = Double(got[output.columns.firstIndex(of: "download_time_s")!])!
            #expect(abs(actual - expected) <= 1e-9 * expected, "row \(row[0]): \(actual) vs \(expected)")
            if let branch { #expect(got[output.columns.firstIndex(of: "branch")!] == row[branch], "row \(row[0])") }
            checked += 1
        }
        #expect(checked >= 300)
    }

    /// The link carries each plan alone on a constant link in the model's time, except where the model's rate is
    /// above the capacity (Veritas rounds sizes to whole segments): the link never exceeds c(t), so it takes S/C.
    @Test(
        "the shared link carries each model's plan alone in the model's time, or S/C where that exceeds capacity",
        arguments: 0..<3)
    func theSharedLinkCarriesEachPlanInTheModelsTime(_ which: Int) throws {
        let (file, modelName, version) = Self.cases[which]
        let reference = try Self.table(file)
        func value(_ row: [String], _ name: String) -> Double? {
            reference.columns.firstIndex(of: name).flatMap { Double(row[$0]) }
        }
        var aboveCapacity = 0
        for row in reference.rows {
            if let version, row[reference.columns.firstIndex(of: "version")!] != version { continue }
            let bits = value(row, "chunk_bytes")! * 8
            let capacity = value(row, "capacity_mbps")! * 1e6
            let rttMs = value(row, "rtt_ms")!
            var parameters: [String: Double] = [:]
            if let cwnd = value(row, "cwnd_segments") { parameters["initialWindowSegments"] = cwnd }
            let model = try DownloadModelDecoder.model(named: modelName, parameters: parameters, rttMs: rttMs)
            let plan = model.plan(
                DownloadRequest(
                    bits: bits, availableBps: capacity, peakBps: capacity, roundTripSeconds: rttMs / 1000))
            let curve = try CapacityCurve(starts: [0], ratesBps: [capacity], duration: 1e6, atEnd: .hold)
            let link = SharedLink(curve: curve)
            link.startFlow(owner: 0, bits: bits, demand: FlowDemand(), at: 0, window: plan.window)
            let finish = link.nextCompletionTime()
            var expected = plan.modelSeconds
            if bits / plan.modelSeconds > capacity * (1 + 1e-12) {
                expected = bits / capacity
                aboveCapacity += 1
            }
            #expect(abs(finish - expected) <= 1e-9 * expected, "row \(row[0]): \(finish) vs \(expected)")
            #expect(link.takeFinished(at: finish) == [0])
        }
        if modelName == "slow-start" { #expect(aboveCapacity == 0) }
    }
}
