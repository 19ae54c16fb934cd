/// `abrsim model download`: a download model evaluated row by row on a CSV of requests, the columns of the
/// CausalSim and Veritas reference tables (`chunk_bytes` or `size_kb`, `capacity_mbps`, `rtt_ms`, and optionally
/// `cwnd_segments` for veritas-v3 and `thr_start_bytes_per_s` for slow-start).
///
/// Each row becomes one ``DownloadRequest`` (a link of constant capacity, alone) and goes through the model's
/// ``DownloadModel/plan(_:)``, the call a player makes at a first byte. The table comes back with every column
/// kept and `download_time_s` (the plan's ``DownloadPlan/modelSeconds``), `throughput_mbps` and, for models with
/// cases, `branch` filled in (added at the end when absent). Bad rows are ``InputError``s naming the line.
public enum DownloadModelTable {
    /// Evaluates the model named `modelName` on `table` (read from `file`) and returns the CSV bytes.
    public static func evaluate(_ table: CSVTable, file: String, modelName: String) throws -> [UInt8] {
        guard DownloadModelDecoder.names.contains(modelName) else {
            throw InputError(
                .option("--model"), .unknownName(modelName, kind: "download model", known: DownloadModelDecoder.names))
        }
        var columns = table.columns
        for name in ["download_time_s", "throughput_mbps", "branch"] where !columns.contains(name) {
            if name == "branch" && !modelName.hasPrefix("veritas") { continue }
            columns.append(name)
        }
        func index(_ name: String) -> Int? { table.columns.firstIndex(of: name) }
        guard index("chunk_bytes") != nil || index("size_kb") != nil else {
            throw InputError(.line(file, 1), .missing("column chunk_bytes or size_kb"))
        }
        for name in ["capacity_mbps", "rtt_ms"] where index(name) == nil {
            throw InputError(.line(file, 1), .missing("column \(name)"))
        }
        var writer = CSVWriter(columns: columns)
        for (position, row) in table.rows.enumerated() {
            let line = position + 2
            func number(_ name: String) throws -> Double? {
                guard let i = index(name), !row[i].isEmpty else { return nil }
                guard let value = Double(row[i]), value.isFinite else {
                    throw InputError(.line(file, line), .isNot("a number", subject: name, found: "'\(row[i])'"))
                }
                return value
            }
            func cell(_ name: String) -> String { index(name).map { "'\(row[$0])'" } ?? "nothing" }
            let bytes: Double
            if let b = try number("chunk_bytes") {
                bytes = b
            } else if let kb = try number("size_kb") {
                bytes = kb * 1000
            } else {
                throw InputError(.line(file, line), .missing("chunk_bytes or size_kb"))
            }
            guard bytes > 0 else {
                throw InputError(
                    .line(file, line), .mustBe("the size", rule: "positive", found: "\(bytes)", unit: "bytes"))
            }
            guard let capacity = try number("capacity_mbps"), capacity > 0 else {
                throw InputError(
                    .line(file, line), .mustBe("capacity_mbps", rule: "a positive number", found: cell("capacity_mbps"))
                )
            }
            guard let rttMs = try number("rtt_ms"), rttMs >= 0 else {
                throw InputError(.line(file, line), .mustBe("rtt_ms", rule: "a number ≥ 0", found: cell("rtt_ms")))
            }
            var parameters: [String: Double] = [:]
            if let cwnd = try number("cwnd_segments") {
                guard cwnd >= 1 else {
                    throw InputError(.line(file, line), .mustBe("cwnd_segments", rule: "≥ 1", found: "\(cwnd)"))
                }
                parameters["initialWindowSegments"] = cwnd
            }
            if let start = try number("thr_start_bytes_per_s") {
                guard start > 0 else {
                    throw InputError(
                        .line(file, line), .mustBe("thr_start_bytes_per_s", rule: "positive", found: "\(start)"))
                }
                parameters["initialRateBytesPerSecond"] = start
            }
            let model = try DownloadModelDecoder.model(named: modelName, parameters: parameters, rttMs: rttMs)
            if model.needsRoundTrip && !(rttMs > 0) {
                throw InputError(
                    .line(file, line),
                    .mustBe("rtt_ms", rule: "> 0 for model '\(modelName)', which counts round trips", found: "\(rttMs)")
                )
            }
            let bps = capacity * 1e6
            let request = DownloadRequest(
                bits: bytes * 8, availableBps: bps, peakBps: bps, roundTripSeconds: rttMs / 1000)
            let plan = model.plan(request)
            guard plan.modelSeconds.isFinite else {
                throw InputError(
                    .line(file, line),
                    .mustBe(
                        "the model's time for this request", rule: "finite", found: "\(plan.modelSeconds)", unit: "s"))
            }
            var fields = row
            for _ in table.columns.count..<columns.count { fields.append("") }
            fields[columns.firstIndex(of: "download_time_s")!] = formatCSVNumber(plan.modelSeconds)
            let throughput = plan.modelSeconds > 0 ? formatCSVNumber(bytes * 8 / plan.modelSeconds / 1e6) : ""
            fields[columns.firstIndex(of: "throughput_mbps")!] = throughput
            if let branch = plan.branch, let i = columns.firstIndex(of: "branch") { fields[i] = String(branch) }
            writer.appendRow(fields.map { CSVField.text($0) })
        }
        return writer.takeBytes()
    }
}

extension DownloadModelDecoder {
    /// The model `name` with `parameters` (the scenario's parameter names) and RTT `rttMs`, for table rows.
    public static func model(named name: String, parameters: [String: Double], rttMs: Double) throws
        -> any DownloadModel
    {
        let rtt = rttMs > 0 ? rttMs / 1000 : nil
        switch name {
        case "slow-start":
            return SlowStartModel(
                initialRateBps: (parameters["initialRateBytesPerSecond"] ?? 3000) * 8, roundTripSeconds: rtt)
        case "veritas-v7": return VeritasModel(.v7, roundTripSeconds: rtt)
        case "veritas-v3":
            return VeritasModel(
                .v3, initialWindowSegments: parameters["initialWindowSegments"] ?? 10, roundTripSeconds: rtt)
        case "tcp":
            var model = TCPModel(roundTripSeconds: rtt)
            model.initialWindowSegments = parameters["initialWindowSegments"] ?? 10
            return model
        default: return FluidModel()
        }
    }
}
