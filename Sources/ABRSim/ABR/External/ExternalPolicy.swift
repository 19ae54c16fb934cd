/// An ABR policy running outside the simulator as a child process speaking JSON lines (DESIGN §2.5: "External
/// policies run as a child process speaking JSON lines on stdin/stdout … A crash, a timeout or a malformed
/// reply is a clear error naming the policy"). This is how a Python model (a trained Pensieve, say) plugs in
/// without recompiling; the protocol is in `docs/external-policy.md`, with `scenarios/policies/bba.py` as a
/// complete example.
///
/// The child starts once, when the policy is made (one per player per run), in the scenario's folder. For each
/// decision the policy writes one request line (the context: segment, ladder, next sizes, buffer, state, the
/// last `history` downloads…) and reads one reply line, `{"variant": 3}` or `{"wait": 0.5}`, within `timeout`
/// seconds (default 5; the whole exchange, writing the request included, must fit in it). A crash or early exit,
/// a reply that is not that JSON, a variant outside 0…maxVariant or a timeout makes the policy fail, and so does
/// waiting for ever (more than ``maximumWaitsInARow`` waits or ``maximumWaitSeconds`` simulated seconds in a row
/// without a variant, which would keep the run alive for ever): it records ``failureReason`` (naming the policy,
/// with the last lines of the child's stderr), kills the child, and the player ends `failed` with that reason.
/// The child is killed and reaped when the policy is released.
public final class ExternalPolicy: ABRPolicy {
    /// The policy as the user wrote it, for messages.
    public let label: String
    /// Seconds allowed per reply.
    public let timeout: Double
    /// Completed downloads sent with each request (the most recent ones).
    public let historyLength: Int
    /// Why the policy stopped deciding, or `nil`.
    public private(set) var failureReason: String?
    private let process: ChildProcess
    /// Waits in a row since the last variant, and the simulated seconds they asked for.
    private var waitsInARow = 0
    private var waitedSeconds = 0.0
    /// Most waits in a row a policy may answer before it is taken to be stuck (it would keep the run alive forever).
    public static let maximumWaitsInARow = 10_000
    /// Most simulated seconds a policy may wait in a row without choosing a variant.
    public static let maximumWaitSeconds = 3600.0
    /// The child's process id (for tests that check it is gone after a failure).
    var childProcessID: Int32 { process.pid }

    /// Starts `command` in `directory` (`nil`: the current one). Throws if it cannot be started.
    public init(command: [String], directory: String?, label: String, timeout: Double = 5, historyLength: Int = 10)
        throws
    {
        self.label = label
        self.timeout = timeout
        self.historyLength = historyLength
        do {
            process = try ChildProcess(command: command, directory: directory)
        } catch let failure as ChildProcess.Failure {
            throw InputError(.none, .within("external policy '\(label)'", .invalid(failure.message)))
        }
    }

    public func decide(_ context: ABRContext) -> ABRDecision {
        guard failureReason == nil else { return .wait(seconds: 1) }
        let line: String
        do {
            let deadline = ChildProcess.now() + timeout
            try process.send(
                Self.request(for: context, historyLength: historyLength), deadline: deadline, timeout: timeout)
            line = try process.readLine(deadline: deadline, timeout: timeout)
        } catch let failure as ChildProcess.Failure {
            return fail("segment \(context.segmentIndex): \(failure.message)")
        } catch {
            return fail("segment \(context.segmentIndex): \(error)")
        }
        switch Self.parseReply(line, maxVariant: context.maxVariant) {
        case .success(.wait(let seconds)):
            waitsInARow += 1
            waitedSeconds += max(seconds, 0.001)
            guard waitsInARow <= Self.maximumWaitsInARow, waitedSeconds <= Self.maximumWaitSeconds else {
                return fail(
                    "segment \(context.segmentIndex): \(waitsInARow) waits in a row "
                        + "(\(formatParameterNumber(waitedSeconds.rounded())) s) without choosing a variant")
            }
            return .wait(seconds: seconds)
        case .success(let decision):
            waitsInARow = 0
            waitedSeconds = 0
            return decision
        case .failure(let failure): return fail("segment \(context.segmentIndex): \(failure.message)")
        }
    }

    /// Records the failure, kills the child, and answers a harmless wait (the player fails on seeing the reason).
    private func fail(_ message: String) -> ABRDecision {
        let tail = process.stderrTail()
        // What the child wrote (its reply, its stderr) is shown escaped, so the reason is one line of plain text
        // wherever it is written: the message, CSV, HTML, SVG, JUnit.
        failureReason = VisibleText.escaping(
            "external policy '\(label)': \(message)" + (tail.isEmpty ? "" : "; its stderr: \(tail)"))
        process.terminate()
        return .wait(seconds: 1)
    }

    /// The request line for one decision (see `docs/external-policy.md`).
    static func request(for context: ABRContext, historyLength: Int) -> String {
        let content = context.content
        let segment = min(context.segmentIndex, content.segmentCount - 1)
        var json = JSONLineWriter()
        json.string("type", "decide")
        json.number("time", context.time)
        json.integer("segment", context.segmentIndex)
        json.integer("segmentCount", content.segmentCount)
        json.number("segmentDuration", content.segmentDurations[segment])
        json.numbers("ladderKbps", content.variants.map { $0.bitrateBps / 1000 })
        json.numbers("sizesBits", (0..<content.variantCount).map { content.sizeBits(segment: segment, variant: $0) })
        json.number("buffer", context.bufferSeconds)
        json.number("bufferTarget", context.bufferTargetSeconds)
        json.integer("lastVariant", context.lastVariant)
        json.integer("maxVariant", context.maxVariant)
        json.integer("startVariant", context.startVariant)
        json.string("state", context.playbackState.csvName)
        json.number("rate", context.playbackRate)
        json.bool("afterSeek", context.isAfterSeek)
        // Live players only, so a video-on-demand request line is unchanged.
        if let latency = context.liveLatencySeconds { json.number("liveLatency", latency) }
        if let target = context.targetLatencySeconds { json.number("targetLatency", target) }
        let history = context.history
        let first = max(0, history.samples.count - historyLength)
        var samples: [String] = []
        for index in first..<history.samples.count {
            let sample = history.samples[index]
            var item = JSONLineWriter()
            item.number("bits", sample.bits)
            item.number("request", sample.requestTime)
            item.number("firstByte", sample.firstByteTime)
            item.number("done", sample.doneTime)
            item.integer("variant", history.variants[index])
            samples.append(item.finished())
        }
        json.raw("history", "[" + samples.joined(separator: ",") + "]")
        return json.finished()
    }

    /// A reply line as a decision, or what is wrong with it.
    static func parseReply(_ line: String, maxVariant: Int) -> Result<ABRDecision, ChildProcess.Failure> {
        let shown = line.count > 80 ? String(line.prefix(80)) + "…" : line
        func wrong(_ what: String) -> Result<ABRDecision, ChildProcess.Failure> {
            .failure(ChildProcess.Failure(message: "\(what), got '\(shown)'"))
        }
        guard let value = try? JSONParser.parse(Array(line.utf8), file: "reply"), case .object(let object) = value
        else { return wrong("the reply is not a JSON object") }
        if let variant = object["variant"] {
            guard object.count == 1, case .number(let x) = variant, x == x.rounded() else {
                return wrong("expected {\"variant\": <whole number>}")
            }
            guard x >= 0, x <= Double(maxVariant) else {
                return wrong("variant \(formatParameterNumber(x)) is outside 0…\(maxVariant)")
            }
            return .success(.variant(Int(x)))
        }
        if let wait = object["wait"] {
            guard object.count == 1, case .number(let x) = wait, x >= 0 else {
                return wrong("expected {\"wait\": <seconds ≥ 0>}")
            }
            return .success(.wait(seconds: x))
        }
        return wrong("expected {\"variant\": n} or {\"wait\": seconds}")
    }
}

extension BuiltInPolicies {
    /// `external`'s parameters.
    enum ExternalParameters {
        static let command = Parameter<[String]?>.command(
            "command", source: "the user", "program and arguments (a JSON array, or words split on spaces)")
        static let timeout = Parameter.number(
            "timeout", default: 5, unit: "s", source: "docs/external-policy.md",
            "wall-clock time allowed per decision: request and reply")
        static let history = Parameter.count(
            "history", default: 10, unit: "downloads", source: "docs/external-policy.md",
            "most recent downloads sent with each request")
    }

    /// `{"name": "external", "command": ["python3", "my_abr.py"], "timeout": 5, "history": 10}`.
    static let external = PolicyDescriptor(
        name: "external",
        summary: "a child process speaking JSON lines (docs/external-policy.md; e.g. scenarios/policies/bba.py)",
        parameters: [ExternalParameters.command, ExternalParameters.timeout, ExternalParameters.history]
    ) { arguments, environment in
        guard let command = try arguments.value(ExternalParameters.command) else {
            throw arguments.error(
                .withAdvice(.missing("parameter 'command'"), advice: "e.g. \"command\": [\"python3\", \"my_abr.py\"]"))
        }
        guard !command.isEmpty else { throw arguments.error(.mustBe("the command", rule: "non-empty", found: "[]")) }
        let timeout = try arguments.value(ExternalParameters.timeout)
        let history = try arguments.value(ExternalParameters.history)
        do {
            return try ExternalPolicy(
                command: command, directory: environment.directory, label: arguments.spec.label, timeout: timeout,
                historyLength: history)
        } catch var error as InputError {
            error.place = InputPlace(
                file: arguments.file, position: arguments.location.map(InputPlace.Position.init(text:)))
            throw error
        }
    }
}
