import Testing

@testable import ABRSim

/// The P.1203 mode-0 export: hand-built sessions give hand-written JSON, and every export has the schema's keys
/// and types.
@Suite("the P.1203 export")
struct P1203ExportTests {
    /// A session by hand: 3 segments of 4 s (the second one abandoned once and fetched again), a 0.5 s startup,
    /// one 1.5 s stall at media time 4 s.
    static let segments = CSVTable(
        columns: ["player", "segment", "variant", "bitrate_kbps", "duration_s", "abandoned", "timed_out", "extra"],
        rows: [
            ["p", "0", "1", "750", "4", "false", "false", "x"],
            ["p", "1", "3", "1850", "4", "true", "false", "x"],
            ["p", "1", "0", "300", "4", "false", "false", "x"],
            ["p", "2", "2", "1200", "3.5", "false", "false", "x"],
        ])
    static let timeline = CSVTable(
        columns: ["t_s", "player", "state", "playhead_s"],
        rows: [
            ["0", "p", "loading", "0"], ["0.5", "p", "playing", "0"], ["4.5", "p", "buffering", "4"],
            ["5.25", "p", "buffering", "4"], ["6", "p", "playing", "4"], ["14", "p", "ended", "11.5"],
        ])
    static let summary = CSVTable(columns: ["player", "startup_s"], rows: [["p", "0.5"]])

    @Test("a hand-built session exports the hand-written P.1203 JSON, abandoned requests left out and stalls listed")
    func handBuiltSessionGivesTheExpectedJSON() throws {
        var settings = P1203Export.Settings()
        settings.resolutions = [0: "640x360", 1: "960x540", 2: "1280x720"]
        settings.fps = 30
        let sessions = try P1203Export.sessions(
            segments: Self.segments, timeline: Self.timeline, summary: Self.summary, settings: settings, file: "r")
        #expect(sessions.map(\.player) == ["p"])
        let expected =
            #"{"I11":{"segments":[],"streamId":42},"I13":{"segments":["#
            + #"{"bitrate":750,"codec":"h264","duration":4,"fps":30,"resolution":"960x540","start":0},"#
            + #"{"bitrate":300,"codec":"h264","duration":4,"fps":30,"resolution":"640x360","start":4},"#
            + #"{"bitrate":1200,"codec":"h264","duration":3.5,"fps":30,"resolution":"1280x720","start":8}"#
            + #"],"streamId":42},"I23":{"stalling":[[0,0.5],[4,1.5]],"streamId":42},"#
            + #""IGen":{"device":"pc","displaySize":"1920x1080","viewingDistance":"150cm"}}"# + "\n"
        #expect(sessions[0].json == expected)
    }

    @Test("a P.1203 export has exactly the schema's keys and types, segment starts following their durations")
    func everyExportHasTheSchemasKeysAndTypes() throws {
        let sessions = try P1203Export.sessions(
            segments: Self.segments, timeline: Self.timeline, summary: Self.summary, settings: .init(), file: "r")
        let root = try JSONReader(JSONParser.parse(Array(sessions[0].json.utf8), file: "p.json"), file: "p.json")
            .object()
        let audio = try root.required("I11").object()
        #expect(try audio.required("segments").array().isEmpty)
        _ = try audio.required("streamId").nonNegativeInt()
        try audio.finish()
        let video = try root.required("I13").object()
        var start = 0.0
        for entry in try video.required("segments").array() {
            let segment = try entry.object()
            #expect(try segment.required("bitrate").positiveDouble() > 0)
            #expect(["h264", "h265", "hevc", "vp9"].contains(try segment.required("codec").string()))
            let duration = try segment.required("duration").positiveDouble()
            #expect(try segment.required("fps").positiveDouble() == 24)
            #expect(Resolution(parsing: try segment.required("resolution").string()) != nil)
            #expect(try segment.required("start").double() == start)
            start += duration
            try segment.finish()
        }
        _ = try video.required("streamId").nonNegativeInt()
        try video.finish()
        let stalls = try root.required("I23").object()
        for pair in try stalls.required("stalling").array() {
            let values = try pair.array().map { try $0.double() }
            #expect(values.count == 2 && values[0] >= 0 && values[1] > 0)
        }
        _ = try stalls.required("streamId").nonNegativeInt()
        try stalls.finish()
        let general = try root.required("IGen").object()
        #expect(["pc", "mobile"].contains(try general.required("device").string()))
        _ = try general.required("displaySize").string()
        _ = try general.required("viewingDistance").string()
        try general.finish()
        try root.finish()
    }

    @Test("a session without startup delay or stall exports an empty stalling list")
    func noStartupAndNoStallGiveAnEmptyStallingList() throws {
        let timeline = CSVTable(columns: Self.timeline.columns, rows: [["0", "p", "playing", "0"]])
        let summary = CSVTable(columns: ["player", "startup_s"], rows: [["p", ""]])
        let sessions = try P1203Export.sessions(
            segments: Self.segments, timeline: timeline, summary: summary, settings: .init(), file: "r")
        #expect(sessions[0].json.contains(#""I23":{"stalling":[],"streamId":42}"#))
    }

    @Test("a segments table missing a column is refused, naming the file and the column")
    func aMissingColumnNamesTheFile() {
        let broken = CSVTable(columns: ["player", "segment"], rows: [])
        #expect(throws: InputError(.line("r/segments.csv", 1), .missing("column 'variant'"))) {
            try P1203Export.sessions(
                segments: broken, timeline: Self.timeline, summary: Self.summary, settings: .init(), file: "r")
        }
    }
}
