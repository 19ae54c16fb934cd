/// Decodes a scenario's `feed` object into a ``FeedDescription`` (keys in `docs/feed.md`): `player` (a player
/// object without content, decoded as the `players` entries are), `items` (each `id` and `content`), `count`,
/// `recommendationWindow`, `swipe`, `preload` (a preload policy spec, checked against ``PreloadPolicies``),
/// `preloadPriority` and `carryEstimate` (only over items of one ladder). Every error names the file and JSON path. Called by ``ScenarioLoader``.
struct FeedDecoder {
    let directory: String
    let registry: PolicyRegistry
    /// Largest recommendation window and number of items.
    static let maximumWindow = 1000
    static let maximumItems = 100_000

    func decode(_ reader: JSONReader) throws -> FeedDescription {
        let object = try reader.object()
        let itemReaders = try object.required("items").array()
        guard !itemReaders.isEmpty else {
            throw try object.required("items").error(.noneGiven("item", in: "a feed"))
        }
        var listed: [FeedItem] = []
        for itemReader in itemReaders {
            let item = try itemReader.object()
            let idReader = try item.required("id")
            let id = try idReader.string()
            guard !id.isEmpty, !id.contains(","), id.utf8.count <= ScenarioLoader.maximumNameBytes else {
                throw idReader.error(
                    .mustBe(
                        "an item id",
                        rule: "non-empty, comma-free and at most \(ScenarioLoader.maximumNameBytes) bytes",
                        found: "'\(id)'"))
            }
            if listed.contains(where: { $0.id == id }) {
                throw idReader.error(.duplicate(id, of: "item id"))
            }
            let content = try ContentDecoder(directory: directory).decode(try item.required("content"))
            guard content.live == nil else {
                throw idReader.error(
                    .notApplicable("live content", onlyFor: "players", here: "a feed item (video on demand)"))
            }
            try item.finish()
            listed.append(FeedItem(id: id, content: content))
        }
        var items = listed
        if let countReader = object.optional("count") {
            let count = try countReader.int(in: 1...Self.maximumItems)
            items = (0..<count).map { k in
                let item = listed[k % listed.count]
                return count > listed.count ? FeedItem(id: "\(item.id)-\(k)", content: item.content) : item
            }
        }
        let windowReader = try object.required("recommendationWindow")
        let window = try windowReader.double()
        guard window == window.rounded(), window >= 1, window <= Double(Self.maximumWindow) else {
            throw windowReader.error(
                .mustBe(
                    "the recommendation window (how many upcoming items the app knows)",
                    rule: "a whole number 1…\(Self.maximumWindow)", found: JSONPath.format(window)))
        }
        let viewer = try PlayerDecoder(content: items[0].content, directory: directory, registry: registry).decode(
            try object.required("player"))
        let (swipe, swipeLabel) = try decodeSwipe(try object.required("swipe"))
        let preloadReader = try object.required("preload")
        let preload = try PlayerDecoder(content: nil, directory: directory, registry: registry).decodePolicy(
            preloadReader)
        _ = try PreloadPolicies.checked(preload, file: preloadReader.file, location: preloadReader.path)
        var preloadPriority = NetworkResourcePriority.default
        if let x = object.optional("preloadPriority") {
            preloadPriority = try PlayerDecoder(content: nil, directory: directory, registry: registry).priority(x)
        }
        var carryEstimate = false
        if let x = object.optional("carryEstimate") {
            carryEstimate = try x.bool()
            let ladder = items[0].content.variants.map(\.bitrateBps)
            if carryEstimate, let other = items.firstIndex(where: { $0.content.variants.map(\.bitrateBps) != ladder }) {
                throw x.error(
                    .missingPrerequisite(
                        "one estimate across items",
                        needs:
                            "one ladder, but item \(other) (\(items[other].id)) has another than item 0 (\(items[0].id))"
                    ))
            }
        }
        try object.finish()
        var feed = FeedDescription(
            viewer: viewer, items: items, recommendationWindow: Int(window), swipe: swipe, swipeLabel: swipeLabel,
            preload: preload, preloadLocation: preloadReader.path, preloadPriority: preloadPriority)
        feed.carryEstimate = carryEstimate
        return feed
    }

    /// `model` with each run's seed set on a copy.
    private static func reseeding<Model: SeededSwipeModel>(_ model: Model) -> @Sendable (UInt64) -> any SwipeModel {
        { seed in
            var seeded = model
            seeded.seed = seed
            return seeded
        }
    }

    /// `{"model": "fixed", "watchSeconds": [...]}`, `{"model": "exponential", "lambda": λ}` or
    /// `{"model": "retention", "curves": [...]}`: the model for a seed, and its label.
    func decodeSwipe(_ reader: JSONReader) throws -> (@Sendable (UInt64) -> any SwipeModel, String) {
        let object = try reader.object()
        let modelReader = try object.required("model")
        let name = try modelReader.string()
        switch name {
        case "fixed":
            let secondsReader = try object.required("watchSeconds")
            var seconds: [Double] = []
            for entry in try secondsReader.array() { seconds.append(try entry.double(in: 0...1e9)) }
            try object.finish()
            let model = try FixedWatchTimes(seconds: seconds)
            return ({ _ in model }, "fixed")
        case "exponential":
            let lambda = try object.required("lambda").double(in: 1e-9...1e9)
            try object.finish()
            let model = try ExponentialSwipeModel(lambda: lambda, seed: 0)
            return (Self.reseeding(model), "exponential(lambda=\(JSONPath.format(lambda)))")
        case "retention":
            let curvesReader = try object.required("curves")
            let entries = try curvesReader.array()
            guard !entries.isEmpty else {
                throw curvesReader.error(.noneGiven("curve", in: "a retention swipe model"))
            }
            let curves = try entries.map(decodeCurve)
            try object.finish()
            let model = try RetentionCurveSwipeModel(curves: curves, seed: 0)
            return (Self.reseeding(model), "retention")
        default:
            throw modelReader.error(
                .unknownName(name, kind: "swipe model", known: ["fixed", "exponential", "retention"]))
        }
    }

    /// One retention curve: `{"fractions": [1, 0.9, …]}` (still watching at each whole second, never rising),
    /// `{"leaveProbabilities": [0.1, …]}` (leaving during each second, summing to at most 1), or `{"file": PATH}` (the
    /// challenge's `user_ret` format).
    func decodeCurve(_ reader: JSONReader) throws -> RetentionCurve {
        let object = try reader.object()
        var fractions: [Double] = []
        if let x = object.optional("fractions") {
            for (index, entry) in try x.array().enumerated() {
                let fraction = try entry.double(in: 0...1)
                if index > 0, fraction > fractions[index - 1] {
                    throw entry.error(
                        .outOfOrder(
                            "a retention curve", order: "never rise", found: JSONPath.format(fraction),
                            after: JSONPath.format(fractions[index - 1])))
                }
                fractions.append(fraction)
            }
        } else if let x = object.optional("leaveProbabilities") {
            fractions = [1]
            var sum = 0.0
            for entry in try x.array() {
                let chance = try entry.double(in: 0...1)
                sum += chance
                fractions.append(max(0, 1 - sum))
            }
            guard sum <= 1 + 1e-12 else {
                throw x.error(.overLimit("the chances of leaving sum to \(JSONPath.format(sum))", limit: "1"))
            }
        } else if let x = object.optional("file") {
            let path = InputFile.resolve(try x.string(), against: directory)
            try object.finish()
            return try x.readingReferencedFile { try RetentionCurve.read(path: path) }
        } else {
            throw reader.error(.exactlyOne(of: ["fractions", "leaveProbabilities", "file"], found: []))
        }
        try object.finish()
        guard fractions.count >= 2 else {
            throw reader.error(.tooFew("seconds", atLeast: 2, found: fractions.count, in: "a retention curve"))
        }
        do {
            return try RetentionCurve(seconds: fractions.indices.map(Double.init), fractions: fractions)
        } catch let error as InputError {
            throw reader.error(error.problem)
        }
    }
}
