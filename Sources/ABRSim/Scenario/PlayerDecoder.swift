/// Decodes one entry of a scenario's `players` array into a ``PlayerDescription``.
///
/// Keys: `id` (required), `policy` (a name, `name(k=v,…)`, or `{"name": …, parameters…}`),
/// `preferredForwardBufferDuration`, `automaticallyWaitsToMinimizeStalling`, `autoplay`, `rate`,
/// `startSeconds`, `keepUp` (`{"predictor": "playThrough", "minimumBufferSeconds", "safetyFactor"}` or
/// `{"predictor": "fixedThreshold", "startSeconds", "afterStallSeconds"}`), `actions`.
struct PlayerDecoder {
    let content: Content
    let registry: PolicyRegistry

    func decode(_ reader: JSONReader) throws -> PlayerDescription {
        let object = try reader.object()
        let idReader = try object.required("id")
        let id = try idReader.string()
        guard !id.isEmpty, !id.contains(",") else {
            throw idReader.error("a player id must be non-empty and comma-free")
        }
        let policyReader = try object.required("policy")
        let policy = try decodePolicy(policyReader)
        guard registry.descriptor(named: policy.name) != nil else {
            throw policyReader.error(
                "unknown policy '\(policy.name)' (known: \(registry.descriptors.map(\.name).joined(separator: ", ")))")
        }
        var settings = PlayerSettings()
        if let x = object.optional("preferredForwardBufferDuration") {
            settings.preferredForwardBufferDuration = try x.nonNegativeDouble()
        }
        if let x = object.optional("automaticallyWaitsToMinimizeStalling") {
            settings.automaticallyWaitsToMinimizeStalling = try x.bool()
        }
        if let x = object.optional("autoplay") { settings.autoplay = try x.bool() }
        if let x = object.optional("rate") { settings.initialRate = try x.positiveDouble() }
        if let x = object.optional("startSeconds") { settings.startSeconds = try x.nonNegativeDouble() }
        if let x = object.optional("keepUp") { settings.keepUpPredictor = try decodePredictor(x) }
        if let x = object.optional("actions") { settings.actions = try decodeActions(x) }
        try object.finish()
        return PlayerDescription(
            id: id, content: content, policy: policy, policyLocation: policyReader.path, settings: settings)
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
                        throw value.error("a policy parameter list must hold strings, found \(item.typeName)")
                    }
                    words.append(word)
                }
                parameters.append((key, .list(words)))
            default:
                let found = value.value.typeName
                throw value.error(
                    "a policy parameter must be a number, a string or an array of strings, found \(found)")
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

    func decodePredictor(_ reader: JSONReader) throws -> any KeepUpPredictor {
        let object = try reader.object()
        let kindReader = try object.required("predictor")
        let kind = try kindReader.string()
        let predictor: any KeepUpPredictor
        switch kind {
        case "playThrough":
            var p = PlayThroughPredictor()
            if let x = object.optional("minimumBufferSeconds") { p.minimumBufferSeconds = try x.nonNegativeDouble() }
            if let x = object.optional("safetyFactor") { p.safetyFactor = try x.positiveDouble() }
            predictor = p
        case "fixedThreshold":
            var p = FixedThresholdPredictor()
            if let x = object.optional("startSeconds") { p.startSeconds = try x.nonNegativeDouble() }
            if let x = object.optional("afterStallSeconds") { p.afterStallSeconds = try x.nonNegativeDouble() }
            predictor = p
        default:
            throw kindReader.error("unknown predictor '\(kind)' (expected playThrough or fixedThreshold)")
        }
        try object.finish()
        return predictor
    }

    func decodeActions(_ reader: JSONReader) throws -> [TimedAction] {
        var actions: [TimedAction] = []
        for item in try reader.array() {
            let object = try item.object()
            let time = try object.required("atSeconds").nonNegativeDouble()
            var found: [PlayerAction] = []
            if let x = object.optional("pause") {
                guard try x.bool() else { throw x.error("pause takes true") }
                found.append(.pause)
            }
            if let x = object.optional("play") {
                guard try x.bool() else { throw x.error("play takes true") }
                found.append(.play(rate: 1))
            }
            if let x = object.optional("seek") { found.append(.seek(to: try x.nonNegativeDouble())) }
            if let x = object.optional("skip") { found.append(.skip(by: try x.double())) }
            if let x = object.optional("rate") { found.append(.rate(try x.nonNegativeDouble())) }
            try object.finish()
            guard found.count == 1 else {
                throw item.error("an action needs exactly one of pause, play, seek, skip, rate (found \(found.count))")
            }
            actions.append(TimedAction(time: time, action: found[0]))
        }
        // Stable by time, so actions at one instant happen in file order.
        return actions.enumerated().sorted { ($0.element.time, $0.offset) < ($1.element.time, $1.offset) }.map(
            \.element)
    }
}
