/// Reads a scenario file (JSON), validating every key, and builds a ``Scenario``.
///
/// Keys are documented in `docs/scenario-format.md`. Unknown keys are errors that name them; every error names
/// the file and the JSON path. Relative paths (traces, content) resolve against the scenario file's folder.
/// The command line and the tests call ``load(_:)``.
public struct ScenarioLoader {
    /// Policies the scenario may name.
    public var registry: PolicyRegistry

    /// A loader using `registry` (the built-in policies by default).
    public init(registry: PolicyRegistry = .builtIn) {
        self.registry = registry
    }

    /// Loads and validates the scenario at `path`.
    public func load(_ path: String) throws -> Scenario {
        try load(
            document: JSONParser.parseFile(path), file: path, directory: InputFile.directory(of: path),
            defaultName: InputFile.fileName(of: path).replacingSuffix(".json", with: ""))
    }

    /// Loads and validates a scenario given as JSON text rather than a file (the Python package's dicts):
    /// `label` stands for the file in errors, relative paths resolve against `directory`, and the name defaults
    /// to `defaultName`.
    public func load(json: [UInt8], label: String, directory: String, defaultName: String) throws -> Scenario {
        try load(
            document: JSONParser.parse(json, file: label), file: label, directory: directory, defaultName: defaultName)
    }

    private func load(document: JSONValue, file path: String, directory: String, defaultName: String) throws
        -> Scenario
    {
        let root = try JSONReader(document, file: path).object()
        let name = try root.optional("name")?.string() ?? defaultName
        try checkName(name, root.optional("name") ?? root.reader)
        let seed = try root.optional("seed").map { try $0.nonNegativeInt() } ?? 1
        _ = try root.optional("description")?.string()
        let (network, networkLabel) = try NetworkDecoder(directory: directory, seed: UInt64(seed)).decode(
            root.required("network"))
        let content = try root.optional("content").map { try ContentDecoder(directory: directory).decode($0) }
        let qoe = try root.optional("qoe").map(decodeQoE) ?? QoESettings()
        let duration = try root.optional("durationSeconds")?.positiveDouble()
        var allocation = AllocationStrategy.weighted
        var weights = PriorityWeights()
        if let reader = root.optional("allocation") {
            (allocation, weights) = try decodeAllocation(reader)
        }
        var routes: [ExternalRoute] = []
        if let reader = root.optional("routes") {
            let object = try reader.object()
            for key in object.keys {
                guard key != "local" else { throw reader.error("'local' is the shared link; name routes otherwise") }
                let (timeline, _) = try NetworkDecoder(directory: directory).decode(try object.required(key))
                routes.append(ExternalRoute(name: key, network: timeline))
            }
            try object.finish()
        }
        let routeNames = routes.map { $0.name }
        let sharedCache = try root.optional("sharedCache").map { try PlayerDecoder.decodeCache($0, isShared: true) }
        let playerReaders = try root.required("players").array()
        guard !playerReaders.isEmpty else { throw root.reader.error("players: at least one player is needed") }
        var players: [PlayerDescription] = []
        for reader in playerReaders {
            let player = try PlayerDecoder(
                content: content, directory: directory, registry: registry, sharedCache: sharedCache,
                routeNames: routeNames
            ).decode(reader)
            if players.contains(where: { $0.id == player.id }) {
                throw reader.error("two players have the id '\(player.id)'")
            }
            players.append(player)
        }
        if let reader = root.optional("actions") {
            for item in try reader.array() {
                let object = try item.object()
                let idReader = try object.required("player")
                let id = try idReader.string()
                guard let index = players.firstIndex(where: { $0.id == id }) else {
                    throw idReader.error("no player has the id '\(id)'")
                }
                let decoder = PlayerDecoder(
                    content: content, directory: directory, registry: registry, routeNames: routeNames)
                let action = try decoder.decodeAction(item, object: object)
                players[index].settings.actions.append(action)
            }
            for index in players.indices {
                players[index].settings.actions = PlayerDecoder.sorted(players[index].settings.actions)
            }
        }
        var groupSizes: [String: Int] = [:]
        for player in players {
            if let group = player.settings.coordinationGroup { groupSizes[group, default: 0] += 1 }
        }
        for (position, reader) in playerReaders.enumerated() {
            if let group = players[position].settings.coordinationGroup, groupSizes[group] == 1 {
                throw reader.error("coordination group '\(group)' has only this player; a group needs two or more")
            }
        }
        let expectations = try root.optional("expect").map { try ExpectationDecoder(players: players).decode($0) }
        let tune = try root.optional("tune").map(TuneSettingsDecoder.decode)
        try root.finish()
        var scenario = Scenario(
            name: name, file: path, seed: UInt64(seed), network: network, networkLabel: networkLabel,
            players: players, qoe: qoe, durationSeconds: duration, allocation: allocation, priorityWeights: weights)
        scenario.routes = routes
        scenario.expectations = expectations ?? []
        scenario.tune = tune
        return scenario
    }

    func checkName(_ name: String, _ reader: JSONReader) throws {
        guard !name.isEmpty, !name.contains("/"), name != ".", name != ".." else {
            throw reader.error("name must be a non-empty word usable as a folder name, got '\(name)'")
        }
    }

    /// `{"strategy": "weighted"|"equal"|"strict", "weights": {"low": 1, "default": 2, "high": 4}}`.
    func decodeAllocation(_ reader: JSONReader) throws -> (AllocationStrategy, PriorityWeights) {
        let object = try reader.object()
        var strategy = AllocationStrategy.weighted
        if let x = object.optional("strategy") {
            let text = try x.string()
            guard let parsed = AllocationStrategy(rawValue: text) else {
                throw x.error("unknown strategy '\(text)' (expected weighted, equal or strict)")
            }
            strategy = parsed
        }
        var weights = PriorityWeights()
        if let x = object.optional("weights") {
            let table = try x.object()
            if let w = table.optional("low") { weights.low = try w.positiveDouble() }
            if let w = table.optional("default") { weights.standard = try w.positiveDouble() }
            if let w = table.optional("high") { weights.high = try w.positiveDouble() }
            try table.finish()
        }
        try object.finish()
        return (strategy, weights)
    }

    /// `{"rebufferPenalty", "smoothnessPenalty", "startupPenalty"}` for `qoe_lin`, and optional `log` and `hd`
    /// objects with the same keys for `qoe_log` and `qoe_hd`.
    func decodeQoE(_ reader: JSONReader) throws -> QoESettings {
        let object = try reader.object()
        var settings = QoESettings()
        settings.linear = try decodeWeights(object, base: settings.linear)
        if let x = object.optional("log") {
            let inner = try x.object()
            settings.log = try decodeWeights(inner, base: settings.log)
            try inner.finish()
        }
        if let x = object.optional("hd") {
            let inner = try x.object()
            settings.hd = try decodeWeights(inner, base: settings.hd)
            try inner.finish()
        }
        try object.finish()
        return settings
    }

    func decodeWeights(_ object: JSONObjectReader, base: QoEWeights) throws -> QoEWeights {
        var weights = base
        if let x = object.optional("rebufferPenalty") { weights.rebufferPenalty = try x.nonNegativeDouble() }
        if let x = object.optional("smoothnessPenalty") { weights.smoothnessPenalty = try x.nonNegativeDouble() }
        if let x = object.optional("startupPenalty") { weights.startupPenalty = try x.nonNegativeDouble() }
        return weights
    }
}

extension String {
    func replacingSuffix(_ suffix: String, with replacement: String) -> String {
        hasSuffix(suffix) ? String(dropLast(suffix.count)) + replacement : self
    }
}
