import Foundation
import Testing

@testable import ABRSim

/// The catalogue's download-model cases (issue 19): a window model without an RTT (in a table row and in a
/// scenario), negative sizes, an unknown model, and a throughput log whose requests overlap in a way one
/// connection cannot carry. Each exits 2 with one line naming the file and the line or JSON path.
extension BadInputCatalogueTests {
    static let downloadModelCases: [Case] = [
        Case(
            fixture: "tcp-rows-rtt-zero.csv",
            arguments: ["model", "download", "--model", "slow-start", "tcp-rows-rtt-zero.csv"],
            mentions: ["tcp-rows-rtt-zero.csv", "line 2", "rtt_ms must be > 0"]),
        Case(
            fixture: "tcp-rows-rtt-zero.csv (veritas-v3)",
            arguments: ["model", "download", "--model", "veritas-v3", "tcp-rows-rtt-zero.csv"],
            mentions: ["tcp-rows-rtt-zero.csv", "line 2", "rtt_ms must be > 0"]),
        Case(
            fixture: "tcp-rows-negative-size.csv",
            arguments: ["model", "download", "--model", "veritas-v7", "tcp-rows-negative-size.csv"],
            mentions: ["tcp-rows-negative-size.csv", "line 3", "size must be positive"]),
        Case(
            fixture: "log-overlapping-requests.csv",
            arguments: ["trace", "infer", "log-overlapping-requests.csv"],
            mentions: ["log-overlapping-requests.csv", "line 3", "one connection carries one request at a time"]),
        Case(
            fixture: "log-negative-size.csv", arguments: ["trace", "infer", "log-negative-size.csv"],
            mentions: ["log-negative-size.csv", "line 3", "size must be positive"]),
        Case(
            fixture: "ok/access_log.csv (window model, no RTT)",
            arguments: ["trace", "infer", "--log-format", "access-log", "ok/access_log.csv"],
            mentions: ["ok/access_log.csv", "line 2", "RTT must be > 0", "got 0.0 s"]),
        run(
            "scenario-download-model-without-rtt.json", "$.network.downloadModel", "counts round trips"),
        run("scenario-download-model-unknown.json", "$.players[0].downloadModel.model", "unknown download model"),
    ]

    @Test(
        "each bad download-model input exits 2 with one stderr line naming the file and the line or JSON path",
        arguments: downloadModelCases)
    func badDownloadModelInputExitsWithStatusTwoNamingThePlace(_ badCase: Case)
        throws
    {
        try badInputExitsWithStatusTwoAndOneLineNamingThePlace(badCase)
    }
}
