import ABRSimTestSupport
import Foundation
import Testing

@testable import ABRSim

/// The catch-up controllers against the dash.js and ExoPlayer reference tables (`Tests/Fixtures/reference/live`),
/// every row, in process through ``LiveCatchUpTable``.
@Suite("the catch-up controllers against the reference tables")
struct CatchUpReferenceTests {
    /// The reference with every output column emptied, so nothing can be passed through.
    static func blanked(_ table: CSVTable, outputs: [String]) -> CSVTable {
        let indices = outputs.compactMap { table.columns.firstIndex(of: $0) }
        return CSVTable(
            columns: table.columns,
            rows: table.rows.map { row in
                var row = row
                for i in indices { row[i] = "" }
                return row
            })
    }

    @Test("dash.js and LoL+ catch-up rates and actions match every dash.js reference row within 1e-12")
    func dashjsRatesAndActionsMatchEveryReferenceRow() throws {
        let reference = try CatchUpReferenceFixture.load("dashjs_catchup.csv")
        let input = Self.blanked(reference, outputs: LiveCatchUpTable.dashOutputs)
        for controller in ["dashjs", "dashjs-lolp"] {
            let bytes = try LiveCatchUpTable.evaluate(input, file: "rows.csv", controllerName: controller)
            let got = try CSVTable.parse(bytes, file: "out")
            #expect(got.columns == reference.columns)
            #expect(got.rows.count == reference.rows.count)
            for name in ["new_rate", "rate_after", "drift_s", "min_rate_change", "rate_min", "rate_max", "max_drift_s"]
            {
                for (row, (a, b)) in zip(got.column(name)!, reference.column(name)!).enumerated() {
                    #expect(
                        CatchUpReferenceFixture.relativeDifference(a, b) <= 1e-12,
                        "\(controller) \(name) row \(row + 2): \(a) vs \(b)")
                }
            }
            for name in ["action", "should_start", "mode_effective"] {
                #expect(got.column(name)! == reference.column(name)!, "\(controller) \(name)")
            }
        }
        // Every kind of decision is covered.
        #expect(Set(reference.column("action")!) == ["inactive", "seek", "set_rate", "keep"])
    }

    @Test("the ExoPlayer speeds and target offsets match every row of the five media3 reference sessions")
    func exoplayerSpeedsAndTargetOffsetsMatchEveryReferenceSession() throws {
        let reference = try CatchUpReferenceFixture.load("exoplayer_speed.csv")
        let outputs = [
            "speed_media3", "target_offset_us_media3", "ideal_target_offset_us_media3",
            "smoothed_min_possible_offset_us_media3", "smoothed_deviation_us_media3",
        ]
        let bytes = try LiveCatchUpTable.evaluate(
            Self.blanked(reference, outputs: outputs), file: "rows.csv", controllerName: "exoplayer")
        let got = try CSVTable.parse(bytes, file: "out")
        #expect(got.columns == reference.columns)
        for name in outputs {
            #expect(got.column(name)! == reference.column(name)!, "\(name)")
        }
        #expect(Set(reference.column("scenario")!).count == 5)
        #expect(Set(reference.column("event")!) == ["config", "override", "rebuffer", "speed"])
    }

    @Test("reversed ExoPlayer reference rows replay in step order and come out in their input order")
    func exoplayerSessionsReplayInStepOrderWhateverTheRowOrder() throws {
        let reference = try CatchUpReferenceFixture.load("exoplayer_speed.csv")
        let reversed = CSVTable(columns: reference.columns, rows: reference.rows.reversed())
        let bytes = try LiveCatchUpTable.evaluate(reversed, file: "rows.csv", controllerName: "exoplayer")
        let got = try CSVTable.parse(bytes, file: "out")
        #expect(got.rows == reversed.rows)
    }
}
