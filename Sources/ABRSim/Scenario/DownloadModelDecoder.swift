/// Decodes a scenario's `downloadModel` (on the `network` object, for every player, or on a player, for that
/// one): a model name, or `{"model": NAME, parameters…}`.
///
/// Names and parameters (docs/download-models.md):
/// - `fluid` (the default): none.
/// - `slow-start`: `rttMs` (default: the network's latency), `initialRateBytesPerSecond` (3000).
/// - `veritas-v7`: `rttMs`.
/// - `veritas-v3`: `rttMs`, `initialWindowSegments` (10).
/// - `tcp`: `rttMs`, `initialWindowSegments` (10), `segmentBytes` (1448), `restartAfterIdle` (true),
///   `minimumRtoMs` (200), `persistent` (true).
///
/// A model counted in round trips needs a positive RTT: its own `rttMs`, or a network whose latency is positive
/// everywhere (``check(_:network:at:)``).
public enum DownloadModelDecoder {
    /// The model names a scenario (and `abrsim model download --model`) may give.
    public static let names = ["fluid", "slow-start", "veritas-v3", "veritas-v7", "tcp"]

    static func decode(_ reader: JSONReader) throws -> any DownloadModel {
        if reader.isString { return try model(named: try reader.string(), at: reader, object: nil) }
        let object = try reader.object()
        let nameReader = try object.required("model")
        let model = try model(named: try nameReader.string(), at: nameReader, object: object)
        try object.finish()
        return model
    }

    static func model(named name: String, at reader: JSONReader, object: JSONObjectReader?) throws
        -> any DownloadModel
    {
        func rtt() throws -> Double? {
            guard let x = object?.optional("rttMs") else { return nil }
            return try x.positiveDouble() / 1000
        }
        func window() throws -> Double {
            guard let x = object?.optional("initialWindowSegments") else {
                return VeritasModel.defaultInitialWindowSegments
            }
            let value = try x.positiveDouble()
            guard value >= 1 else {
                throw x.error(.mustBe("a congestion window", rule: "at least 1 segment", found: JSONPath.format(value)))
            }
            return value
        }
        switch name {
        case "fluid":
            return FluidModel()
        case "slow-start":
            let rate = try object?.optional("initialRateBytesPerSecond").map { try $0.positiveDouble() * 8 }
            return SlowStartModel(
                initialRateBps: rate ?? SlowStartModel.defaultInitialRateBps, roundTripSeconds: try rtt())
        case "veritas-v7":
            return VeritasModel(.v7, roundTripSeconds: try rtt())
        case "veritas-v3":
            return VeritasModel(.v3, initialWindowSegments: try window(), roundTripSeconds: try rtt())
        case "tcp":
            var model = TCPModel(roundTripSeconds: try rtt())
            model.initialWindowSegments = try window()
            if let x = object?.optional("segmentBytes") { model.segmentBytes = try x.positiveDouble() }
            if let x = object?.optional("restartAfterIdle") { model.restartsAfterIdle = try x.bool() }
            if let x = object?.optional("minimumRtoMs") { model.minimumRtoSeconds = try x.positiveDouble() / 1000 }
            if let x = object?.optional("persistent") { model.isPersistent = try x.bool() }
            return model
        default:
            throw reader.error(.unknownName(name, kind: "download model", known: names))
        }
    }

    /// Refuses a model that needs an RTT on a network that has none to give: no `rttMs` of its own and a latency
    /// that is missing or zero somewhere.
    static func check(_ model: any DownloadModel, network: CapacityCurve, at reader: JSONReader) throws {
        guard model.needsRoundTrip, model.roundTripSeconds == nil else { return }
        let latencies = network.latencySeconds ?? []
        let smallest = min(latencies.min() ?? 0, network.holdLatencySeconds ?? 0)
        guard latencies.isEmpty || smallest <= 0 else { return }
        throw reader.error(
            .withAdvice(
                .missingPrerequisite(
                    "download model '\(model.name)' counts round trips and",
                    needs: "an RTT above 0, but the network's RTT is 0" + (latencies.isEmpty ? "" : " somewhere")),
                advice: "give the network an rttMs or the model one"))
    }
}

extension ScenarioLoader {
    /// Gives every player without a `downloadModel` of its own the network's (if any), and checks that each
    /// model has the RTT it needs.
    func applyDownloadModels(
        _ networkReader: JSONReader, network: CapacityCurve, to players: inout [PlayerDescription],
        _ playerReaders: [JSONReader]
    ) throws {
        let networkObject = try networkReader.object()
        let networkModelReader = networkObject.optional("downloadModel")
        let networkModel = try networkModelReader.map(DownloadModelDecoder.decode)
        for index in players.indices {
            if let model = players[index].settings.downloadModel {
                let reader = try playerReaders[index].object().required("downloadModel")
                try DownloadModelDecoder.check(model, network: network, at: reader)
            } else if let networkModel, let networkModelReader {
                try DownloadModelDecoder.check(networkModel, network: network, at: networkModelReader)
                players[index].settings.downloadModel = networkModel
            }
        }
    }
}
