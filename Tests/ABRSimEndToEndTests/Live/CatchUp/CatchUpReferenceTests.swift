import ABRSimTestSupport
import Foundation
import Testing

@testable import ABRSim

/// The catch-up controllers against the dash.js and ExoPlayer reference tables (`Tests/Fixtures/reference/live`),
/// through the binary.
@Suite("abrsim model catchup against the reference tables")
struct CatchUpReferenceTests {
    @Test("model catchup writes the ExoPlayer reference table back byte for byte")
    func theBinaryWritesTheExoPlayerReferenceBackByteForByte() throws {
        let outcome = try runABRSim([
            "model", "catchup", "--controller", "exoplayer", CatchUpReferenceFixture.folder + "exoplayer_speed.csv",
        ])
        #expect(outcome.status == 0, "\(outcome.standardError)")
        let expected = try String(
            contentsOfFile: CatchUpReferenceFixture.folder + "exoplayer_speed.csv", encoding: .utf8)
        #expect(outcome.standardOutput == expected)
    }

    @Test("model catchup writes the dash.js reference back with its actions and rates within 1e-12")
    func theBinaryWritesTheDashjsReferenceBackWithinTolerance() throws {
        let scratch = TestPaths.scratch("catchup-dashjs")
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        let out = scratch + "/out.csv"
        let outcome = try runABRSim(
            [
                "model", "catchup", "--controller", "dashjs", CatchUpReferenceFixture.folder + "dashjs_catchup.csv",
                "--out", out,
            ])
        #expect(outcome.status == 0, "\(outcome.standardError)")
        #expect(outcome.standardOutput.isEmpty)
        let got = try CSVTable.parse(try InputFile.readAll(out), file: "out")
        let reference = try CatchUpReferenceFixture.load("dashjs_catchup.csv")
        #expect(got.column("action")! == reference.column("action")!)
        for (a, b) in zip(got.column("rate_after")!, reference.column("rate_after")!) {
            #expect(CatchUpReferenceFixture.relativeDifference(a, b) <= 1e-12)
        }
    }
}
