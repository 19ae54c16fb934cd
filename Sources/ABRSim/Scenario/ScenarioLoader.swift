/// Reads a scenario file (JSON), validating every key, and builds a ``Scenario``.
///
/// Keys are documented in `docs/scenario-format.md`. Unknown keys are errors that name them; every error names
/// the file and the JSON path. Relative paths (traces, content) resolve against the scenario file's folder.
/// The command line and the tests call ``load(_:)``.
public struct ScenarioLoader {
    /// Policies the scenario may name.
    public var registry: PolicyRegistry
    /// Edits made to the parsed document before it is decoded (`--set`), in order.
    public var settings: [ScenarioSetting]

    /// A loader using `registry` (the built-in policies by default) that applies `settings`.
    public init(registry: PolicyRegistry = .builtIn, settings: [ScenarioSetting] = []) {
        self.registry = registry
        self.settings = settings
    }

    /// The error for a scenario whose records would not fit in memory, `nil` when they do: every player keeps one
    /// record per segment and a few timeline rows (``ScenarioBounds/estimatedBytesPerSegment`` in all, with the
    /// rows of the output tables), so the estimate is the players' segments summed times that; above
    /// ``ScenarioBounds/maximumRecordBytes`` the error is located at the content (else at the players). A run that
    /// keeps no records (``ScenarioRunner/run(_:seed:recordsTimeline:keepsSegmentRecords:)``) needs none of it.
    func recordMemoryError(_ players: [PlayerDescription], root: JSONObjectReader) -> InputError? {
        let segments = players.reduce(0) { $0 + $1.content.segmentCount }
        let estimate = Double(segments) * Double(ScenarioBounds.estimatedBytesPerSegment)
        guard estimate > Double(ScenarioBounds.maximumRecordBytes) else { return nil }
        let place =
            root.has("content") ? JSONPath.key(root.reader.path, "content") : JSONPath.key(root.reader.path, "players")
        return InputError(
            InputPlace(file: root.reader.file, position: InputPlace.Position(text: place)),
            .withAdvice(
                .overLimit(
                    "\(players.count) player\(players.count == 1 ? "" : "s") × their segments (\(segments) in all) would "
                        + "hold an estimated \(Int(estimate / 1_048_576)) MiB of records",
                    limit:
                        "\(ScenarioBounds.maximumRecordBytes >> 20) MiB (\(ScenarioBounds.maximumSegmentsHeld) segments "
                        + "summed over the players)"),
                advice: "use fewer segments or players, or a sweep with --no-segments"))
    }

    /// The parsed document at `path` with ``settings`` applied.
    public func document(_ path: String) throws -> JSONValue {
        try applySettings(to: JSONParser.parseFile(path), file: path)
    }

    /// The parsed JSON text `json` with ``settings`` applied; `label` stands for the file in errors.
    public func document(json: [UInt8], label: String) throws -> JSONValue {
        try applySettings(to: JSONParser.parse(json, file: label), file: label)
    }

    private func applySettings(to parsed: JSONValue, file: String) throws -> JSONValue {
        var document = parsed
        for setting in settings { document = try setting.apply(to: document, file: file) }
        return document
    }

    /// Loads and validates the scenario at `path` (with ``settings`` applied). An error about a value a setting
    /// wrote says so: `… (set by --set PATH=VALUE)`. With `seed` (a command line's `--seed`), that seed replaces
    /// the scenario's `seed` and every synthetic model's own `seed`, so it reaches every random stream of the run
    /// (`docs/seeds.md`).
    public func load(_ path: String, seed override: UInt64? = nil) throws -> Scenario {
        try annotatingSettings(file: path) {
            try decode(
                document(path), path: path, directory: InputFile.directory(of: path),
                defaultName: InputFile.fileName(of: path).replacingSuffix(".json", with: ""), seed: override)
        }
    }

    /// Loads and validates a scenario given as JSON text rather than a file (the Python package's dicts):
    /// `label` stands for the file in errors, relative paths resolve against `directory`, and the name defaults
    /// to `defaultName`; ``settings`` and `seed` apply as in ``load(_:seed:)``.
    public func load(
        json: [UInt8], label: String, directory: String, defaultName: String, seed override: UInt64? = nil
    ) throws -> Scenario {
        try annotatingSettings(file: label) {
            try decode(
                document(json: json, label: label), path: label, directory: directory, defaultName: defaultName,
                seed: override)
        }
    }

    /// Runs `body`, adding to an error at a JSON path of `file` the `--set` edit that wrote the value there.
    private func annotatingSettings(file: String, _ body: () throws -> Scenario) throws -> Scenario {
        do {
            return try body()
        } catch var error as InputError where error.file == file && error.location != nil {
            if let cause = settings.last(where: { $0.isCause(ofErrorAt: error.location!, problem: error.problem) }) {
                error.problem = .setBy(error.problem, setting: "\(cause.option) \(cause.pathText)=\(cause.valueText)")
            }
            throw error
        }
    }

    /// Decodes the parsed document of the scenario labelled `path` (its file, or what stands for it), whose relative
    /// paths resolve against `directory` and whose name defaults to `defaultName`.
    func decode(
        _ document: JSONValue, path: String, directory: String, defaultName: String, seed override: UInt64? = nil
    ) throws -> Scenario {
        let root = try JSONReader(document, file: path).object()
        let name = try root.optional("name")?.string() ?? defaultName
        try checkName(name, root.optional("name") ?? root.reader)
        let fileSeed = try root.optional("seed").map { try $0.seed() } ?? 1
        let seed = override ?? fileSeed
        let description = try root.optional("description")?.string() ?? ""
        let (network, networkLabel) = try NetworkDecoder(
            directory: directory, seed: seed, overridesModelSeeds: override != nil
        ).decode(root.required("network"))
        let content = try root.optional("content").map { try ContentDecoder(directory: directory).decode($0) }
        let qoe = try root.optional("qoe").map(decodeQoE) ?? QoESettings()
        let duration = try root.optional("durationSeconds")?.double(in: ScenarioBounds.durationSeconds)
        var allocation = AllocationStrategy.weighted
        var weights = PriorityWeights()
        if let reader = root.optional("allocation") {
            (allocation, weights) = try decodeAllocation(reader)
        }
        var routes: [ExternalRoute] = []
        if let reader = root.optional("routes") {
            let object = try reader.object()
            for (position, key) in object.keys.enumerated() {
                guard key != "local" else {
                    throw reader.error(
                        .mustBe("a route name", rule: "other than 'local' (the shared link)", found: "'local'"))
                }
                let decoder = NetworkDecoder(
                    directory: directory, seed: seed, overridesModelSeeds: override != nil, networkIndex: position + 1)
                let (timeline, _) = try decoder.decode(try object.required(key))
                routes.append(ExternalRoute(name: key, network: timeline))
            }
            try object.finish()
        }
        let routeNames = routes.map { $0.name }
        let sharedCache = try root.optional("sharedCache").map { try PlayerDecoder.decodeCache($0, isShared: true) }
        var feed = try root.optional("feed").map {
            try FeedDecoder(directory: directory, registry: registry).decode($0)
        }
        if feed != nil, root.has("players") {
            throw root.reader.error(
                .conflicting(["players", "feed"], reason: "a scenario has either players or a feed, not both"))
        }
        let playerReaders = try feed == nil ? root.required("players").array() : []
        guard feed != nil || !playerReaders.isEmpty else {
            throw root.reader.error(.noneGiven("player", in: "players"))
        }
        guard playerReaders.count <= ScenarioBounds.maximumPlayers else {
            throw root.reader.error(
                .overLimit("players: \(playerReaders.count) players", limit: "\(ScenarioBounds.maximumPlayers)"))
        }
        var players: [PlayerDescription] = feed.map { [$0.viewer] } ?? []
        for reader in playerReaders {
            let player = try PlayerDecoder(
                content: content, directory: directory, registry: registry, sharedCache: sharedCache,
                routeNames: routeNames
            ).decode(reader)
            if players.contains(where: { $0.id == player.id }) {
                throw reader.error(.duplicate(player.id, of: "player id"))
            }
            players.append(player)
        }
        try applyDownloadModels(
            root.required("network"), network: network.curve, to: &players,
            feed == nil ? playerReaders : [try root.required("feed").object().required("player")])
        if feed != nil { feed?.viewer = players[0] }
        if let reader = root.optional("actions") {
            for item in try reader.array() {
                let object = try item.object()
                let idReader = try object.required("player")
                let id = try idReader.string()
                guard let index = players.firstIndex(where: { $0.id == id }) else {
                    throw idReader.error(.unknownName(id, kind: "player", known: players.map(\.id)))
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
                throw reader.error(
                    .tooFew("players", atLeast: 2, found: 1, in: "coordination group '\(group)'"))
            }
        }
        let expectations = try root.optional("expect").map { try ExpectationDecoder(players: players).decode($0) }
        let tune = try root.optional("tune").map(TuneSettingsDecoder.decode)
        try root.finish()
        var scenario = Scenario(
            name: name, file: path, seed: seed, network: network, networkLabel: networkLabel,
            players: players, qoe: qoe, durationSeconds: duration, allocation: allocation, priorityWeights: weights)
        scenario.descriptionText = description
        scenario.routes = routes
        scenario.expectations = expectations ?? []
        scenario.tune = tune
        if var feed {
            feed.viewer = players[0]
            scenario.feed = feed
        }
        let heldPlayers =
            feed.map { feed in
                feed.items.map { item in
                    var part = feed.viewer
                    part.content = item.content
                    return part
                }
            } ?? players
        scenario.recordMemoryError = recordMemoryError(heldPlayers, root: root)
        return scenario
    }

    /// The longest scenario name, in UTF-8 bytes: the default output folders (`results/NAME-sweep-I-of-N`) must
    /// stay within a file name's 255 bytes (NAME_MAX).
    public static let maximumNameBytes = 200

    func checkName(_ name: String, _ reader: JSONReader) throws {
        guard !name.isEmpty, !name.contains("/"), name != ".", name != ".." else {
            throw reader.error(.mustBe("name", rule: "a non-empty word usable as a folder name", found: "'\(name)'"))
        }
        guard name.utf8.count <= Self.maximumNameBytes else {
            throw reader.error(
                .overLimit(
                    "name of \(name.utf8.count) bytes",
                    limit: "\(Self.maximumNameBytes) bytes (it names the output folders)"))
        }
        if name.unicodeScalars.contains(where: VisibleText.isEscaped) {
            throw reader.error(
                .mustBe("name", rule: "free of control characters and line separators", found: "'\(name)'"))
        }
    }

    /// `{"strategy": "weighted"|"equal"|"strict", "weights": {"low": 1, "default": 2, "high": 4}}`.
    func decodeAllocation(_ reader: JSONReader) throws -> (AllocationStrategy, PriorityWeights) {
        let object = try reader.object()
        var strategy = AllocationStrategy.weighted
        if let x = object.optional("strategy") {
            let text = try x.string()
            guard let parsed = AllocationStrategy(rawValue: text) else {
                throw x.error(
                    .unknownName(text, kind: "strategy", known: AllocationStrategy.registry.names))
            }
            strategy = parsed
        }
        var weights = PriorityWeights()
        if let x = object.optional("weights") {
            let table = try x.object()
            if let w = table.optional("low") { weights.low = try w.double(in: 1e-6...1e6) }
            if let w = table.optional("default") { weights.standard = try w.double(in: 1e-6...1e6) }
            if let w = table.optional("high") { weights.high = try w.double(in: 1e-6...1e6) }
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
