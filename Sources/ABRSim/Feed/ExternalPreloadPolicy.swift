/// A preload policy in a child process speaking JSON lines, over the machinery of the external ABR policies
/// (``ChildProcess``, ``JSONLineWriter``; protocol in `docs/feed.md`). Per decision it writes one `preload` request
/// line (the playing item and the window's items) and reads one reply within 5 s: `{"item": n}` (optionally with
/// `"variant": v`), `{"sleep": seconds}` or `{"idle": true}`. A crash, a timeout or a malformed reply makes it fail
/// (``failureReason``); an item outside the window is the scenario's error, raised by ``FeedSession``.
final class ExternalPreloadPolicy: PreloadPolicy {
    static let command = Parameter<[String]?>.command(
        "command", source: "the user", "program and arguments (a JSON array, or words split on spaces)")
    /// Seconds allowed per reply.
    static let timeout = 5.0
    let label: String
    private let process: ChildProcess
    private(set) var failureReason: String?

    /// Starts `command` in `directory`; errors name the spec's place.
    init(command: [String], directory: String?, arguments: PolicyArguments) throws {
        guard !command.isEmpty else {
            throw arguments.error(
                .withAdvice(.missing("parameter 'command'"), advice: "e.g. \"command\": [\"python3\", \"preload.py\"]"))
        }
        label = arguments.spec.label
        do {
            process = try ChildProcess(command: command, directory: directory)
        } catch let failure as ChildProcess.Failure {
            throw arguments.error(.invalid(failure.message))
        }
    }

    func decide(_ view: FeedView) -> PreloadDecision {
        guard failureReason == nil else { return .idle }
        let line: String
        do {
            let deadline = ChildProcess.now() + Self.timeout
            try process.send(Self.request(for: view), deadline: deadline, timeout: Self.timeout)
            line = try process.readLine(deadline: deadline, timeout: Self.timeout)
        } catch let failure as ChildProcess.Failure {
            return fail(failure.message)
        } catch {
            return fail("\(error)")
        }
        switch Self.parseReply(line) {
        case .success(let decision): return decision
        case .failure(let failure): return fail(failure.message)
        }
    }

    private func fail(_ message: String) -> PreloadDecision {
        let tail = process.stderrTail()
        failureReason = VisibleText.escaping(
            "external preload policy '\(label)': \(message)" + (tail.isEmpty ? "" : "; its stderr: \(tail)"))
        process.terminate()
        return .idle
    }

    /// The request line of one decision.
    static func request(for view: FeedView) -> String {
        var json = JSONLineWriter()
        json.string("type", "preload")
        json.number("time", view.time)
        json.raw("current", item(view.current))
        json.raw("upcoming", "[" + view.upcoming.map(item).joined(separator: ",") + "]")
        return json.finished()
    }

    static func item(_ state: FeedItemState) -> String {
        var json = JSONLineWriter()
        json.integer("item", state.position)
        json.string("id", state.id)
        json.integer("segmentsRequested", state.segmentsRequested)
        json.integer("segmentCount", state.content.segmentCount)
        json.number("segmentDuration", state.content.segmentDurations[0])
        json.numbers("ladderKbps", state.content.variants.map { $0.bitrateBps / 1000 })
        json.number("buffer", state.bufferSeconds)
        json.number("bytes", state.bytes)
        json.bool("loading", state.isLoading)
        return json.finished()
    }

    /// A reply line as a decision, or what is wrong with it.
    static func parseReply(_ line: String) -> Result<PreloadDecision, ChildProcess.Failure> {
        let shown = line.count > 80 ? String(line.prefix(80)) + "…" : line
        func wrong(_ what: String) -> Result<PreloadDecision, ChildProcess.Failure> {
            .failure(ChildProcess.Failure(message: "\(what), got '\(shown)'"))
        }
        guard let value = try? JSONParser.parse(Array(line.utf8), file: "reply"), case .object(let object) = value
        else { return wrong("the reply is not a JSON object") }
        func whole(_ value: JSONValue?) -> Int? {
            guard case .number(let x) = value, x == x.rounded(), x.magnitude < 1e9 else { return nil }
            return Int(x)
        }
        if let item = object["item"] {
            guard let position = whole(item) else { return wrong("expected {\"item\": <whole number>}") }
            var variant: Int?
            if object["variant"] != nil {
                guard let v = whole(object["variant"]), v >= 0 else { return wrong("expected \"variant\": <n ≥ 0>") }
                variant = v
            }
            guard object.count == (variant == nil ? 1 : 2) else { return wrong("unknown keys beside \"item\"") }
            return .success(.preload(item: position, variant: variant))
        }
        if let sleep = object["sleep"] {
            guard object.count == 1, case .number(let x) = sleep, x >= 0, x.isFinite else {
                return wrong("expected {\"sleep\": <seconds ≥ 0>}")
            }
            return .success(.sleep(seconds: x))
        }
        if object["idle"] != nil, object.count == 1 { return .success(.idle) }
        return wrong("expected {\"item\": n}, {\"sleep\": seconds} or {\"idle\": true}")
    }
}
