/// Decodes one entry of a scenario's `players` array into a ``PlayerDescription``.
///
/// Keys: `id` (required), `policy` (a name, `name(k=v,…)`, or `{"name": …, parameters…}`),
/// `preferredForwardBufferDuration`, `automaticallyWaitsToMinimizeStalling`, `autoplay`, `rate`,
/// `startSeconds`, `keepUp` (`{"predictor": NAME, parameters…}`, a name of ``KeepUpPredictors``),
/// `requests` (timeout and retries, see ``RequestRetryDecoder``), `actions`.
struct PlayerDecoder {
    /// The scenario's content, if it has one for every player.
    let content: Content?
    let directory: String
    let registry: PolicyRegistry
    /// The scenario's shared cache (`sharedCache`), for players whose `cache` is `"shared"`.
    var sharedCache: CacheSettings?
    /// Names of the scenario's external routes (route n + 1 in ``PlayerAction/route(_:)``).
    var routeNames: [String] = []

    func decode(_ reader: JSONReader) throws -> PlayerDescription {
        let object = try reader.object()
        let idReader = try object.required("id")
        let id = try idReader.string()
        guard !id.isEmpty, !id.contains(",") else {
            throw idReader.error(.mustBe("a player id", rule: "non-empty and comma-free", found: "'\(id)'"))
        }
        guard id.utf8.count <= ScenarioLoader.maximumNameBytes else {
            throw idReader.error(
                .overLimit("a player id of \(id.utf8.count) bytes", limit: "\(ScenarioLoader.maximumNameBytes) bytes"))
        }
        let policyReader = try object.required("policy")
        let policy = try decodePolicy(policyReader)
        guard registry.descriptor(named: policy.name) != nil else {
            throw policyReader.error(
                .unknownName(policy.name, kind: "policy", known: registry.descriptors.map(\.name)))
        }
        let playerContent: Content
        if let x = object.optional("content") {
            playerContent = try ContentDecoder(directory: directory).decode(x)
        } else if let content {
            playerContent = content
        } else {
            throw reader.error(.missing("content: give the scenario a content or this player one"))
        }
        var settings = PlayerSettings()
        if let x = object.optional("networkResourcePriority") { settings.networkResourcePriority = try priority(x) }
        if let x = object.optional("preferredPeakBitRate") {
            settings.preferredPeakBitRate = try x.double(in: 0...1e11)
        }
        if let x = object.optional("preferredMaximumResolution") {
            guard let size = Resolution(parsing: try x.string()) else {
                throw x.error(.expected("a resolution like \"1280x720\"", found: "\"\(try x.string())\""))
            }
            settings.preferredMaximumResolution = size
        }
        if let x = object.optional("cache") {
            if x.isString {
                let word = try x.string()
                guard word == "shared" else {
                    throw x.error(.expected("an object or \"shared\"", found: "\"\(word)\""))
                }
                guard let sharedCache else {
                    throw x.error(.missingPrerequisite("\"shared\"", needs: "a top-level sharedCache"))
                }
                settings.cache = sharedCache
            } else {
                settings.cache = try Self.decodeCache(x, isShared: false)
            }
        }
        if let x = object.optional("coordinationGroup") {
            let group = try x.string()
            guard !group.isEmpty else {
                throw x.error(.mustBe("a coordination group", rule: "a non-empty name", found: "\"\""))
            }
            settings.coordinationGroup = group
        }
        if let x = object.optional("rateLimitKbps") {
            settings.rateLimitBps =
                try x.double(in: ScenarioBounds.minimumBitrateKbps...ScenarioBounds.rateKbps.upperBound) * 1000
        }
        if let x = object.optional("preferredForwardBufferDuration") {
            settings.preferredForwardBufferDuration = try x.double(in: ScenarioBounds.bufferSeconds)
        }
        if let x = object.optional("automaticallyWaitsToMinimizeStalling") {
            settings.automaticallyWaitsToMinimizeStalling = try x.bool()
        }
        if let x = object.optional("autoplay") { settings.autoplay = try x.bool() }
        if let x = object.optional("rate") { settings.initialRate = try x.double(in: ScenarioBounds.playbackRate) }
        if let x = object.optional("startSeconds") {
            settings.startSeconds = try x.double(in: ScenarioBounds.timeSeconds)
        }
        if let x = object.optional("keepUp") { settings.keepUpPredictor = try decodePredictor(x) }
        if let x = object.optional("requests") { settings.requests = try RequestRetryDecoder.decode(x) }
        if let x = object.optional("actions") {
            settings.actions = try decodeActions(x)
            if playerContent.live == nil, settings.actions.contains(where: { $0.action == .seekToLive }) {
                throw x.error(.notApplicable("seekToLive", onlyFor: "live content", here: "video on demand"))
            }
        }
        if let x = object.optional("downloadModel") { settings.downloadModel = try DownloadModelDecoder.decode(x) }
        if let x = object.optional("live") {
            settings.live = try LiveDecoder.decodeSettings(
                x, content: playerContent, startSeconds: settings.startSeconds)
        } else if let stream = playerContent.live,
            settings.startSeconds - stream.availabilityStartSeconds >= playerContent.duration
        {
            throw (object.optional("startSeconds") ?? reader).error(
                LiveDecoder.startsAfterContent(settings.startSeconds, stream: stream, content: playerContent))
        }
        try object.finish()
        return PlayerDescription(
            id: id, content: playerContent, policy: policy, policyLocation: policyReader.path, settings: settings)
    }

    func decodePolicy(_ reader: JSONReader) throws -> PolicySpec {
        if reader.isString {
            do {
                return try PolicySpec.parse(try reader.string(), source: reader.path)
            } catch var error as InputError {
                error.file = reader.file
                throw error
            }
        }
        let object = try reader.object()
        let nameReader = try object.required("name")
        let name = try nameReader.string()
        var parameters: [(name: String, value: PolicySpec.Value)] = []
        for key in object.keys where key != "name" {
            guard let value = object.optional(key) else { continue }
            switch value.value {
            case .number(let x): parameters.append((key, .number(x)))
            case .string(let s): parameters.append((key, .text(s)))
            case .array(let items):
                var words: [String] = []
                for item in items {
                    guard case .string(let word) = item else {
                        throw value.error(.expected("a string in a policy parameter list", found: item.typeName))
                    }
                    words.append(word)
                }
                parameters.append((key, .list(words)))
            default:
                let found = value.value.typeName
                throw value.error(
                    .expected("a policy parameter: a number, a string or an array of strings", found: found))
            }
        }
        try object.finish()
        do {
            try PolicySpec.checkName(name, source: nameReader.path)
        } catch var error as InputError {
            error.file = reader.file
            throw error
        }
        return PolicySpec(name: name, parameters: parameters)
    }

    func priority(_ reader: JSONReader) throws -> NetworkResourcePriority {
        let text = try reader.string()
        guard let level = NetworkResourcePriority(rawValue: text) else {
            throw reader.error(.oneOf("networkResourcePriority", allowed: ["low", "default", "high"], found: text))
        }
        return level
    }

    /// A `keepUp` object: the predictor named by `predictor`, looked up in ``KeepUpPredictors/registry``
    /// and built from the object's other keys.
    func decodePredictor(_ reader: JSONReader) throws -> any KeepUpPredictor {
        let object = try reader.object()
        let kindReader = try object.required("predictor")
        let kind = try kindReader.string()
        guard let predictor = try KeepUpPredictors.makePredictor(kind, parameters: JSONKeepUpParameters(object: object))
        else {
            throw kindReader.error(
                .unknownName(kind, kind: "predictor", known: KeepUpPredictors.registry.names))
        }
        try object.finish()
        return predictor
    }

    func decodeActions(_ reader: JSONReader) throws -> [TimedAction] {
        var actions: [TimedAction] = []
        for item in try reader.array() {
            actions.append(try decodeAction(item, object: try item.object()))
        }
        return Self.sorted(actions)
    }

    /// Actions stable-sorted by time, so actions at one instant happen in file order.
    static func sorted(_ actions: [TimedAction]) -> [TimedAction] {
        let order = actions.indices.sorted { (actions[$0].time, $0) < (actions[$1].time, $1) }
        return order.map { actions[$0] }
    }

    /// One action object: `atSeconds` and exactly one verb.
    func decodeAction(_ item: JSONReader, object: JSONObjectReader) throws -> TimedAction {
        let time = try object.required("atSeconds").double(in: ScenarioBounds.timeSeconds)
        var found: [PlayerAction] = []
        if let x = object.optional("pause") {
            guard try x.bool() else { throw x.error(.expected("true", found: "false")) }
            found.append(.pause)
        }
        if let x = object.optional("play") {
            guard try x.bool() else { throw x.error(.expected("true", found: "false")) }
            found.append(.play(rate: 1))
        }
        if let x = object.optional("seek") { found.append(.seek(to: try x.double(in: ScenarioBounds.timeSeconds))) }
        if let x = object.optional("seekToLive") {
            guard try x.bool() else { throw x.error(.expected("true", found: "false")) }
            found.append(.seekToLive)
        }
        if let x = object.optional("skip") { found.append(.skip(by: try x.double(in: -1e7...1e7))) }
        if let x = object.optional("rate") {
            found.append(.rate(try x.double(in: 0...ScenarioBounds.playbackRate.upperBound)))
        }
        if let x = object.optional("networkResourcePriority") {
            found.append(.networkResourcePriority(try priority(x)))
        }
        if let x = object.optional("route") { found.append(.route(try route(x))) }
        try object.finish()
        guard found.count == 1 else {
            let verbs = ["pause", "play", "seek", "seekToLive", "skip", "rate", "networkResourcePriority", "route"]
            throw item.error(.exactlyOne(of: verbs, found: verbs.filter { object.has($0) }))
        }
        return TimedAction(time: time, action: found[0])
    }

    /// `{"megabytes": M, "diskMbps": D}`: a cache of M MB (10⁶ bytes) read at D Mbit/s (default 800, a phone's
    /// flash storage).
    static func decodeCache(_ reader: JSONReader, isShared: Bool) throws -> CacheSettings {
        let object = try reader.object()
        let megabytes = try object.required("megabytes").double(in: 1e-6...1e7)
        let disk = try object.optional("diskMbps")?.double(in: 0.001...1e7) ?? 800
        try object.finish()
        return CacheSettings(capacityBytes: megabytes * 1e6, diskBitsPerSecond: disk * 1e6, isShared: isShared)
    }

    /// A route name: `local` (0) or one of the scenario's routes (1…).
    func route(_ reader: JSONReader) throws -> Int {
        let name = try reader.string()
        if name == "local" { return 0 }
        if let position = routeNames.firstIndex(of: name) { return position + 1 }
        let known = ["local"] + routeNames
        throw reader.error(.unknownName(name, kind: "route", known: known))
    }
}

/// A `keepUp` object's parameters, read for a predictor's factory.
struct JSONKeepUpParameters: KeepUpParameters {
    let object: JSONObjectReader

    func number(_ name: String, in range: ClosedRange<Double>) throws -> Double? {
        guard let reader = object.optional(name) else { return nil }
        return try reader.double(in: range)
    }
}
