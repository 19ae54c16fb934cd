/// An ABRSim feed scenario (`docs/feed.md`) expressed in the MM'22 challenge's model, for
/// `compare --profile mmgc22 FEED` and `sweep --profile mmgc22 FEED`: each item a clip (its content's chunk sizes,
/// its retention curve), the scenario's trace as the challenge's network, and its swipes as the challenge's users
/// (a `retention` swipe model: the user module's seeded draw over each item's curve) or as watch times (a `fixed`
/// model). Anything the challenge cannot represent is an ``InputError`` naming the file and JSON path: a network
/// other than one cooked trace looping with the challenge's 80 ms RTT, content other than 1-s chunks at
/// 750 / 1200 / 1850 kbit/s, an exponential swipe model, a recommendation window other than the challenge's 4,
/// a `durationSeconds`. The viewer's ABR policy, `preloadPriority` and `allocation` are not used: the challenge's
/// algorithm picks every chunk's level and downloads one chunk at a time.
public struct MMGC22ScenarioFeed: Sendable {
    /// The scenario file.
    public var file: String
    /// The clips, in feed order (item k is clip k; `count` cycles them).
    public var clips: [MMGC22Clip]
    /// The trace, read as the challenge's `load_trace` reads it.
    public var trace: PensieveCookedTrace
    /// The watch time of every clip, ms, for a `fixed` swipe model; `nil` for a `retention` one (the users draw).
    public var watchMilliseconds: [Double]?
    /// Clips per session when `count` cycles the listed items (as `abrsim mmgc22 --clips N`); `nil`: each once.
    public var clipCount: Int?
    /// The scenario's preload policy when it is one of the challenge's algorithms with no parameters.
    public var algorithm: MMGC22Algorithm?

    /// The challenge's network delay per chunk, ms (`network_module`'s RTT).
    public static let rttMs = MMGC22Model.rttMilliseconds
    /// The profile as its errors name it.
    static let profile = "the mmgc22 profile"
    /// The challenge's player window past the playing clip: the next four.
    public static let recommendationWindow = MMGC22Model.windowSize - 1

    /// The feed of `scenario` (decoded from `document`, its JSON text with its `--set` edits applied).
    public init(scenario: Scenario, document: JSONValue) throws {
        file = scenario.file
        let root = try JSONReader(document, file: scenario.file).object()
        let feedReader = try root.required("feed")
        guard let feed = scenario.feed else {
            throw feedReader.error(
                .unsupported(by: Self.profile, supports: "feed scenarios", found: "a scenario of players"))
        }
        let feedObject = try feedReader.object()
        if let duration = root.optional("durationSeconds") {
            throw duration.error(
                .notApplicable(
                    nil, onlyFor: nil, here: Self.profile,
                    hint: "the challenge plays every clip to its end; remove durationSeconds"))
        }
        let window = try feedObject.required("recommendationWindow")
        guard feed.recommendationWindow == Self.recommendationWindow else {
            throw window.error(
                .unsupported(
                    by: Self.profile, supports: "a window of \(Self.recommendationWindow)",
                    found: "\(feed.recommendationWindow)",
                    reason: "the challenge's player knows the playing clip and the next \(Self.recommendationWindow)"))
        }
        trace = try Self.trace(try root.required("network"), directory: InputFile.directory(of: scenario.file))
        let listed = try feedObject.required("items").array()
        let swipe = feed.swipe(scenario.seed)
        let swipeReader = try feedObject.required("swipe")
        var curves: [RetentionCurve] = []
        if let retention = swipe as? RetentionCurveSwipeModel {
            curves = retention.curves
            watchMilliseconds = nil
        } else if let fixed = swipe as? FixedWatchTimes {
            watchMilliseconds = feed.items.indices.map { index in
                (index < fixed.seconds.count
                    ? min(fixed.seconds[index], feed.items[index].content.duration)
                    : feed.items[index].content.duration) * 1000
            }
        } else {
            let model = try swipeReader.object().required("model")
            throw model.error(
                .unsupported(
                    by: Self.profile, supports: "the retention model (its user module's draw) or fixed watch times",
                    found: "'\(try model.string())'", reason: "the challenge's users leave by retention curves"))
        }
        var clips: [MMGC22Clip] = []
        for (index, item) in feed.items.enumerated() {
            let contentReader = try listed[index % listed.count].object().required("content")
            let chunkBytes = try Self.chunkBytes(item.content, reader: contentReader)
            // A fixed model's watch times replace the draw; the curve then only feeds fixed_preload's reading of it.
            let curve = curves.isEmpty ? Self.watchToTheEnd(chunks: chunkBytes[0].count) : curves[index % curves.count]
            do {
                clips.append(
                    try MMGC22Clip(name: item.id, chunkBytes: chunkBytes, retention: curve, place: scenario.file))
            } catch let error as InputError {
                let place =
                    curves.isEmpty
                    ? contentReader : try swipeReader.object().required("curves").array()[index % curves.count]
                throw place.error(error.problem)
            }
        }
        self.clips = clips
        clipCount = feed.items.count == listed.count ? nil : feed.items.count
        let preload = feed.preload
        algorithm = preload.parameters.isEmpty ? MMGC22Algorithm(rawValue: preload.name) : nil
    }

    /// The challenge's network from `$.network`: `{"trace": PATH}` in the cooked `time_s Mbit/s` format, with no
    /// `rttMs` or the challenge's 80, looping at its end.
    static func trace(_ reader: JSONReader, directory: String) throws -> PensieveCookedTrace {
        let network = try reader.object()
        func unsupported(_ supports: String, found: String) -> InputProblem {
            .unsupported(
                by: profile, supports: supports, found: found,
                reason:
                    "the challenge's network module plays one cooked trace, looping, with an \(JSONPath.format(rttMs)) ms RTT"
            )
        }
        guard let path = network.optional("trace") else {
            throw reader.error(unsupported("a network of one cooked trace ({\"trace\": PATH})", found: "none"))
        }
        let keys = ["trace", "format", "rttMs", "atEnd", "name"]
        for key in network.keys where !keys.contains(key) {
            throw try network.required(key).error(
                unsupported("the keys \(keys.joined(separator: ", "))", found: "\"\(key)\""))
        }
        if let format = network.optional("format"), try format.string() != "pensieve" {
            throw format.error(unsupported("format 'pensieve'", found: "'\(try format.string())'"))
        }
        if let rtt = network.optional("rttMs"), try rtt.double() != rttMs {
            throw rtt.error(
                unsupported("an RTT of \(JSONPath.format(rttMs)) ms", found: "\(JSONPath.format(try rtt.double())) ms"))
        }
        if let atEnd = network.optional("atEnd"), try atEnd.string() != "loop" {
            throw atEnd.error(unsupported("atEnd 'loop'", found: "'\(try atEnd.string())'"))
        }
        let resolved = InputFile.resolve(try path.string(), against: directory)
        return try path.readingReferencedFile { try PensieveCookedTrace.read(path: resolved) }
    }

    /// `video_size[level][chunk]` of `content`: 1-s chunks at the challenge's three bitrates, else an error at
    /// `reader` (the item's `content`).
    static func chunkBytes(_ content: Content, reader: JSONReader) throws -> [[Double]] {
        let ladder = content.variants.map { $0.bitrateBps / 1000 }
        guard ladder == MMGC22Model.bitratesKbps.map(Double.init),
            content.segmentDurations.allSatisfy({ $0 == MMGC22Model.chunkMilliseconds / 1000 })
        else {
            throw reader.error(
                .unsupported(
                    by: profile, supports: "the challenge's 1-s chunks at 750, 1200 and 1850 kbit/s",
                    found: "\(ladder.map(JSONPath.format).joined(separator: "/")) kbit/s and "
                        + "\(Set(content.segmentDurations).sorted().map(JSONPath.format).joined(separator: "/")) s segments"
                ))
        }
        return (0..<content.variantCount).map { level in
            (0..<content.segmentCount).map { content.sizeBytes(segment: $0, variant: level) }
        }
    }

    /// A curve that keeps every viewer to the end of a clip of `chunks` chunks (fixed watch times need none of
    /// the draw, but `fixed_preload` reads a curve).
    static func watchToTheEnd(chunks: Int) -> RetentionCurve {
        let fractions = (0...chunks + 1).map { $0 <= chunks ? 1.0 : 0.0 }
        // Monotone, within [0, 1]: the initialiser cannot fail.
        return try! RetentionCurve(seconds: fractions.indices.map(Double.init), fractions: fractions)
    }

    /// The challenge's session of this feed watched by `user` (ignored for fixed watch times).
    public func feed(user: MMGC22Run.User) -> MMGC22Feed {
        let viewers =
            watchMilliseconds.map { MMGC22Feed.Viewers.watchMilliseconds($0) }
            ?? MMGC22Run.viewers(of: user, clipCount: clipCount)
        return MMGC22Feed(clips: clips, trace: trace, viewers: viewers, place: file)
    }
}
