/// `abrsim model catchup`: a live catch-up controller evaluated on a CSV with the columns of the live reference
/// tables, written back with every column kept and the controller's outputs filled in (added at the end when
/// absent). Bad input is an ``InputError`` naming the file and the line; nothing is written then.
///
/// - `dashjs`, `dashjs-lolp`: one independent ``DashCatchupController`` step per row (`dashjs_catchup.csv`
///   columns; a `mode_setting` column sets `liveCatchup.mode` per row). Fills `mode_effective`, `rate_min`,
///   `rate_max`, `max_drift_s`, `drift_s`, `should_start`, `new_rate`, `min_rate_change`, `action`, `rate_after`.
/// - `exoplayer`: one ``DefaultLivePlaybackSpeedControl`` per `scenario`, fed its rows in `step` order
///   (`exoplayer_speed.csv` columns: `config`, `override`, `rebuffer`, `speed` events). Fills `speed_media3`
///   (on `speed` rows), `target_offset_us_media3` and the three internal `*_media3` fields.
/// - `shaka`, `none`: one independent decision per row from `target_latency_s`, `latency_s`, `buffer_s`,
///   `current_rate` (and `playback_stalled`, `now_s` when present). Fills `drift_s`, `new_rate`, `action`,
///   `rate_after`, and empties the dash.js-only outputs.
public enum LiveCatchUpTable {
    /// Evaluates the controller `controllerName` on `table` (read from `file`) and returns the CSV bytes.
    public static func evaluate(_ table: CSVTable, file: String, controllerName: String) throws -> [UInt8] {
        let controller = try LiveCatchUpControllers.controller(named: controllerName)
        var reader = Rows(table: table, file: file)
        switch controllerName {
        case "exoplayer": return try evaluateExoPlayer(&reader)
        case "dashjs", "dashjs-lolp":
            return try evaluateDash(&reader, preset: (controller as? DashCatchupController) ?? DashCatchupController())
        default: return try evaluateDecisions(&reader, controller: controller)
        }
    }

    static let dashOutputs = [
        "mode_effective", "rate_min", "rate_max", "max_drift_s", "drift_s", "should_start", "new_rate",
        "min_rate_change", "action", "rate_after",
    ]

    private static func evaluateDash(_ reader: inout Rows, preset: DashCatchupController) throws -> [UInt8] {
        try reader.require([
            "target_latency_s", "latency_s", "buffer_s", "current_rate", "playback_buffer_min_s", "rate_min_setting",
            "rate_max_setting", "max_drift_setting_s", "catchup_stalled", "playback_stalled", "is_safari",
        ])
        reader.addOutputs(dashOutputs)
        for line in reader.lines {
            var settings = preset.settings
            if let text = reader.text("mode_setting", line), !text.isEmpty {
                guard let mode = DashLiveCatchupSettings.Mode(rawValue: text) else {
                    throw reader.error(
                        line,
                        .isNot(
                            "liveCatchupModeDefault or liveCatchupModeLoLP", subject: "mode_setting", found: "'\(text)'"
                        ))
                }
                settings.mode = mode
            }
            settings.playbackBufferMin = try reader.number("playback_buffer_min_s", line, allowsNaN: true)
            settings.playbackRateMin = try reader.number("rate_min_setting", line, allowsNaN: true)
            settings.playbackRateMax = try reader.number("rate_max_setting", line, allowsNaN: true)
            settings.maxDrift = try reader.number("max_drift_setting_s", line, allowsNaN: true)
            settings.isSafari = try reader.flag("is_safari", line)
            var controller = DashCatchupController(settings: settings)
            controller.catchupStalled = try reader.flag("catchup_stalled", line)
            let state = try reader.state(line, clock: 0)
            let step = controller.step(state)
            let rates = settings.catchupPlaybackRates
            reader.set("mode_effective", line, settings.effectiveMode.rawValue)
            reader.set("rate_min", line, formatCSVNumber(rates.min))
            reader.set("rate_max", line, formatCSVNumber(rates.max))
            reader.set("max_drift_s", line, formatCSVNumber(settings.catchupMaxDrift))
            reader.set("drift_s", line, formatCSVNumber(step.driftSeconds))
            reader.set("should_start", line, step.shouldStart ? "true" : "false")
            reader.set("new_rate", line, formatCSVNumber(step.newRate))
            reader.set("min_rate_change", line, formatCSVNumber(step.minRateChange))
            reader.set("action", line, step.action.rawValue)
            reader.set("rate_after", line, formatCSVNumber(step.rateAfter))
        }
        return reader.bytes()
    }

    private static func evaluateDecisions(_ reader: inout Rows, controller: any LiveCatchUpController) throws
        -> [UInt8]
    {
        try reader.require(["target_latency_s", "latency_s", "buffer_s", "current_rate"])
        reader.addOutputs(["drift_s", "new_rate", "action", "rate_after"])
        for line in reader.lines {
            var fresh = controller
            let clock = reader.has("now_s") ? try reader.number("now_s", line) : 0
            let state = try reader.state(line, clock: clock)
            let decision = fresh.decide(state)
            let action =
                controller is NoLiveCatchUp
                ? "inactive"
                : decision.seeksToLiveEdge ? "seek" : decision.playbackRate != state.currentRate ? "set_rate" : "keep"
            reader.set("drift_s", line, formatCSVNumber(state.latencySeconds - state.targetLatencySeconds))
            reader.set("new_rate", line, formatCSVNumber(decision.playbackRate))
            reader.set("action", line, action)
            reader.set("rate_after", line, formatCSVNumber(decision.playbackRate))
            for name in dashOutputs where !["drift_s", "new_rate", "action", "rate_after"].contains(name) {
                reader.set(name, line, "")
            }
        }
        return reader.bytes()
    }

    private static func evaluateExoPlayer(_ reader: inout Rows) throws -> [UInt8] {
        try reader.require([
            "scenario", "builder", "step", "t_ms", "event", "live_offset_us", "buffered_us", "cfg_target_offset_ms",
            "cfg_min_offset_ms", "cfg_max_offset_ms", "cfg_min_speed", "cfg_max_speed", "override_us",
        ])
        reader.addOutputs([
            "speed_media3", "target_offset_us_media3", "ideal_target_offset_us_media3",
            "smoothed_min_possible_offset_us_media3", "smoothed_deviation_us_media3",
        ])
        // Sessions in order of first appearance, each in step order.
        var order: [String] = []
        var sessions: [String: [(step: Int64, line: Int)]] = [:]
        var builders: [String: String] = [:]
        for line in reader.lines {
            let scenario = reader.text("scenario", line)!
            let builder = reader.text("builder", line)!
            guard builder == "default" || builder == "custom" else {
                throw reader.error(line, .isNot("default or custom", subject: "builder", found: "'\(builder)'"))
            }
            if let first = builders[scenario], first != builder {
                throw reader.error(
                    line,
                    .mustBeRelative(
                        "builder", found: builder, rule: "the same as",
                        other: "scenario \(scenario)'s on an earlier row",
                        otherValue: first))
            }
            if sessions[scenario] == nil { order.append(scenario) }
            builders[scenario] = builder
            let step = try reader.integer("step", line)
            if sessions[scenario, default: []].contains(where: { $0.step == step }) {
                throw reader.error(line, .duplicate("\(step)", of: "scenario \(scenario)'s step"))
            }
            sessions[scenario, default: []].append((step, line))
        }
        for scenario in order {
            var control = DefaultLivePlaybackSpeedControl(builders[scenario] == "custom" ? customBuilder : .init())
            for (_, line) in sessions[scenario]!.sorted(by: { $0.step < $1.step }) {
                let event = reader.text("event", line)!
                var speed = ""
                switch event {
                case "config":
                    control.setLiveConfiguration(
                        targetOffsetMs: try reader.integer("cfg_target_offset_ms", line),
                        minOffsetMs: try reader.integer("cfg_min_offset_ms", line),
                        maxOffsetMs: try reader.integer("cfg_max_offset_ms", line),
                        minPlaybackSpeed: try reader.float("cfg_min_speed", line),
                        maxPlaybackSpeed: try reader.float("cfg_max_speed", line))
                case "override": control.setTargetLiveOffsetOverrideUs(try reader.integer("override_us", line))
                case "rebuffer": control.notifyRebuffer()
                case "speed":
                    let value = control.getAdjustedPlaybackSpeed(
                        liveOffsetUs: try reader.integer("live_offset_us", line),
                        bufferedDurationUs: try reader.integer("buffered_us", line),
                        elapsedRealtimeMs: try reader.integer("t_ms", line))
                    speed = formatCSVNumber(Double(value))
                default:
                    throw reader.error(
                        line, .isNot("config, override, rebuffer or speed", subject: "event", found: "'\(event)'"))
                }
                reader.set("speed_media3", line, speed)
                reader.set("target_offset_us_media3", line, String(control.targetLiveOffsetUs))
                reader.set("ideal_target_offset_us_media3", line, String(control.idealTargetLiveOffsetUs))
                reader.set(
                    "smoothed_min_possible_offset_us_media3", line, String(control.smoothedMinPossibleLiveOffsetUs))
                reader.set(
                    "smoothed_deviation_us_media3", line, String(control.smoothedMinPossibleLiveOffsetDeviationUs))
            }
        }
        return reader.bytes()
    }

    /// The reference table's `custom` builder: fallback speeds 0.9 / 1.1, proportional factor 0.05, smoothing
    /// 0.99, minimum update interval 500 ms, unit-speed band 50 ms, rebuffer increment 1000 ms.
    static var customBuilder: DefaultLivePlaybackSpeedControl.Builder {
        var builder = DefaultLivePlaybackSpeedControl.Builder()
        builder.fallbackMinPlaybackSpeed = 0.9
        builder.fallbackMaxPlaybackSpeed = 1.1
        builder.proportionalControlFactor = 0.05
        builder.minPossibleLiveOffsetSmoothingFactor = 0.99
        builder.minUpdateIntervalMs = 500
        builder.maxLiveOffsetErrorMsForUnitSpeed = 50
        builder.targetLiveOffsetIncrementOnRebufferMs = 1000
        return builder
    }
}

/// The table's rows with typed field access and the output fields, by 1-based file line.
private struct Rows {
    let file: String
    var columns: [String]
    var fields: [[String]]

    init(table: CSVTable, file: String) {
        self.file = file
        columns = table.columns
        fields = table.rows
    }

    /// The file lines of the data rows.
    var lines: Range<Int> { 2..<(fields.count + 2) }

    func has(_ name: String) -> Bool { columns.contains(name) }

    func require(_ names: [String]) throws {
        for name in names where !has(name) {
            throw InputError(.line(file, 1), .missing("column \(name)"))
        }
    }

    mutating func addOutputs(_ names: [String]) {
        for name in names where !has(name) {
            columns.append(name)
            for i in fields.indices { fields[i].append("") }
        }
    }

    func error(_ line: Int, _ problem: InputProblem) -> InputError { InputError(.line(file, line), problem) }

    func text(_ name: String, _ line: Int) -> String? {
        columns.firstIndex(of: name).map { fields[line - 2][$0] }
    }

    mutating func set(_ name: String, _ line: Int, _ value: String) {
        if let i = columns.firstIndex(of: name) { fields[line - 2][i] = value }
    }

    func number(_ name: String, _ line: Int, allowsNaN: Bool = false) throws -> Double {
        let text = text(name, line) ?? ""
        if allowsNaN && text == "NaN" { return .nan }
        guard let value = Double(text), value.isFinite else {
            throw error(line, .isNot("a number", subject: name, found: "'\(text)'"))
        }
        return value
    }

    /// A Float32 setting, as Java's `(float)` of the number written (exact for a float written exactly).
    func float(_ name: String, _ line: Int) throws -> Float {
        let single = Float(try number(name, line))
        guard single.isFinite else {
            throw error(line, .mustBe(name, rule: "within the float32 range", found: "'\(text(name, line)!)'"))
        }
        return single
    }

    /// An Int64 field: digits, or an integral number below 2^53 written with a fraction or exponent.
    func integer(_ name: String, _ line: Int) throws -> Int64 {
        let text = text(name, line) ?? ""
        if let value = Int64(text) { return value }
        guard let value = Double(text), value == value.rounded(), abs(value) < 9_007_199_254_740_992 else {
            throw error(line, .isNot("an integer", subject: name, found: "'\(text)'"))
        }
        return Int64(value)
    }

    func flag(_ name: String, _ line: Int) throws -> Bool {
        switch text(name, line) {
        case "true": return true
        case "false": return false
        case let other: throw error(line, .isNot("true or false", subject: name, found: "'\(other ?? "")'"))
        }
    }

    /// The decision state of a row: latency, target, buffer and rate; stall flag when present.
    func state(_ line: Int, clock: Double) throws -> LiveCatchUpState {
        LiveCatchUpState(
            nowSeconds: clock, latencySeconds: try number("latency_s", line),
            targetLatencySeconds: try number("target_latency_s", line), bufferSeconds: try number("buffer_s", line),
            currentRate: try number("current_rate", line),
            playbackStalled: has("playback_stalled") ? try flag("playback_stalled", line) : false)
    }

    func bytes() -> [UInt8] {
        var writer = CSVWriter(columns: columns)
        for row in fields { writer.appendRow(row.map { CSVField.text($0) }) }
        return writer.takeBytes()
    }
}
