/// ITU-T P.1203 mode-0 input, per player, from a run's tables (`segments.csv`, `timeline.csv`, `summary.csv`), for
/// the standard QoE tools (the `itu-p1203` model reads this JSON; it is not bundled).
///
/// One JSON object per player:
/// - `I11`: audio, `{"segments": [], "streamId": 42}` (ABRSim simulates no audio track; the key is required);
/// - `I13`: video, one entry per segment played (the completed request of each segment, in segment order):
///   `bitrate` kbit/s, `codec`, `duration` s, `fps`, `resolution` `WxH`, `start` (media time, s: the sum of the
///   earlier segments' durations);
/// - `I23`: `stalling`, `[media time s, duration s]` pairs: the initial loading at 0 (`startup_s`) when there was
///   one, then each run of `buffering` rows in `timeline.csv`, at the playhead where it began;
/// - `IGen`: the device (`pc` or `mobile`), `displaySize` and `viewingDistance`.
/// Called by `abrsim export p1203`.
public enum P1203Export {
    /// What the tables do not record.
    public struct Settings: Sendable {
        /// `codec` of every video segment (`h264`, `h265`, `hevc`, `vp9`).
        public var codec = "h264"
        /// Frames per second of the video.
        public var fps = 24.0
        /// The resolution of each variant (index → `WxH`), or `nil` for ``defaultResolution`` everywhere.
        public var resolutions: [Int: String]?
        /// The resolution of a variant without one.
        public var defaultResolution = "1920x1080"
        /// `IGen.device`: `pc` or `mobile`.
        public var device = "pc"
        /// `IGen.displaySize`.
        public var displaySize = "1920x1080"
        /// `IGen.viewingDistance`.
        public var viewingDistance = "150cm"
        /// The defaults.
        public init() {}
    }

    /// The stream id P.1203's reference inputs use.
    static let streamId = 42

    /// Each player's P.1203 input, in the order players first appear in `segments`. `file` names the folder in
    /// errors.
    public static func sessions(
        segments: CSVTable, timeline: CSVTable, summary: CSVTable, settings: Settings, file: String
    ) throws -> [(player: String, json: String)] {
        let segmentColumns = try columns(
            segments, ["player", "segment", "variant", "bitrate_kbps", "duration_s", "abandoned", "timed_out"],
            file: file + "/segments.csv")
        let timelineColumns = try columns(
            timeline, ["t_s", "player", "state", "playhead_s"], file: file + "/timeline.csv")
        let summaryColumns = try columns(summary, ["player", "startup_s"], file: file + "/summary.csv")
        var players: [String] = []
        for row in segments.rows where !players.contains(row[segmentColumns[0]]) {
            players.append(row[segmentColumns[0]])
        }
        var result: [(player: String, json: String)] = []
        for player in players {
            var played: [Int: [String]] = [:]
            for (line, row) in segments.rows.enumerated() where row[segmentColumns[0]] == player {
                guard row[segmentColumns[5]] == "false", row[segmentColumns[6]] == "false" else { continue }
                let index = try integer(row[segmentColumns[1]], file: file + "/segments.csv", line: line + 2)
                played[index] = row
            }
            var video: [String] = []
            var start = 0.0
            for index in played.keys.sorted() {
                let row = played[index]!
                let line = file + "/segments.csv"
                let variant = try integer(row[segmentColumns[2]], file: line, line: nil)
                let duration = try number(row[segmentColumns[4]], file: line)
                var entry = JSONLineWriter()
                entry.number("bitrate", try number(row[segmentColumns[3]], file: line))
                entry.string("codec", settings.codec)
                entry.number("duration", duration)
                entry.number("fps", settings.fps)
                entry.string("resolution", settings.resolutions?[variant] ?? settings.defaultResolution)
                entry.number("start", start)
                video.append(entry.finished())
                start += duration
            }
            var stalls: [[Double]] = []
            if let row = summary.rows.first(where: { $0[summaryColumns[0]] == player }), !row[summaryColumns[1]].isEmpty
            {
                let startup = try number(row[summaryColumns[1]], file: file + "/summary.csv")
                if startup > 0 { stalls.append([0, startup]) }
            }
            let rows = timeline.rows.filter { $0[timelineColumns[1]] == player }
            var index = 0
            while index < rows.count {
                guard rows[index][timelineColumns[2]] == "buffering" else {
                    index += 1
                    continue
                }
                let began = try number(rows[index][timelineColumns[0]], file: file + "/timeline.csv")
                let media = try number(rows[index][timelineColumns[3]], file: file + "/timeline.csv")
                var end = index
                while end < rows.count && rows[end][timelineColumns[2]] == "buffering" { end += 1 }
                let ended =
                    end < rows.count ? try number(rows[end][timelineColumns[0]], file: file + "/timeline.csv") : began
                if ended > began { stalls.append([media, ended - began]) }
                index = end
            }
            var audio = JSONLineWriter()
            audio.raw("segments", "[]")
            audio.integer("streamId", streamId)
            var videoObject = JSONLineWriter()
            videoObject.raw("segments", "[" + video.joined(separator: ",") + "]")
            videoObject.integer("streamId", streamId)
            var stalling = JSONLineWriter()
            stalling.raw(
                "stalling",
                "["
                    + stalls.map { "[" + $0.map(JSONLineWriter.number).joined(separator: ",") + "]" }.joined(
                        separator: ",")
                    + "]")
            stalling.integer("streamId", streamId)
            var general = JSONLineWriter()
            general.string("device", settings.device)
            general.string("displaySize", settings.displaySize)
            general.string("viewingDistance", settings.viewingDistance)
            var root = JSONLineWriter()
            root.raw("I11", audio.finished())
            root.raw("I13", videoObject.finished())
            root.raw("I23", stalling.finished())
            root.raw("IGen", general.finished())
            result.append((player, root.finished() + "\n"))
        }
        return result
    }

    private static func columns(_ table: CSVTable, _ names: [String], file: String) throws -> [Int] {
        try names.map { name in
            guard let index = table.columns.firstIndex(of: name) else {
                throw InputError(.line(file, 1), .missing("column '\(name)'"))
            }
            return index
        }
    }

    private static func number(_ text: String, file: String) throws -> Double {
        guard let value = Double(text), value.isFinite else {
            throw InputError(.file(file), .isNot("a finite number", subject: nil, found: "'\(text)'"))
        }
        return value
    }

    private static func integer(_ text: String, file: String, line: Int?) throws -> Int {
        guard let value = Int(text) else {
            throw InputError(
                InputPlace(file: file, position: line.map(InputPlace.Position.line)),
                .isNot("a whole number", subject: nil, found: "'\(text)'"))
        }
        return value
    }
}
