/// Settings that are valid but defeat themselves: a policy listed twice, a BBA map that reaches its top above
/// the forward-buffer target, a peak bit rate below the lowest variant (a units slip). Each warning names the
/// setting and says what it does; the commands print them on stderr (`abrsim run: warning: …`) and go on.
/// Called by `run`, `check`, `compare`, `sweep` and `tune`.
public enum SettingWarnings {
    /// Policies given more than once in one list (`--policies bba,bba`): their rows would be mixed together.
    public static func policies(_ specs: [PolicySpec], source: String = "--policies") -> [String] {
        var seen: Set<String> = []
        var reported: Set<String> = []
        var warnings: [String] = []
        for spec in specs where !seen.insert(spec.label).inserted && reported.insert(spec.label).inserted {
            warnings.append(
                "\(source): '\(spec.label)' is listed \(specs.count { $0.label == spec.label }) times; its runs are "
                    + "the same and pool under one label (give it once)")
        }
        return warnings
    }

    /// The warnings of every player of `scenario` (with `policies` replacing the players' own, when given).
    public static func scenario(_ scenario: Scenario, policies: [PolicySpec] = []) -> [String] {
        var warnings: [String] = []
        for (index, player) in scenario.players.enumerated() {
            let place = "\(scenario.file): $.players[\(index)] (\(player.id))"
            for spec in policies.isEmpty ? [player.policy] : policies {
                warnings += self.player(spec, settings: player.settings, content: player.content, place: place)
            }
        }
        return unique(warnings)
    }

    /// The warnings of one player playing `content` with `settings` and the policy `spec`; `place` names it.
    public static func player(_ spec: PolicySpec, settings: PlayerSettings, content: Content, place: String)
        -> [String]
    {
        var warnings: [String] = []
        let target = settings.forwardBufferTarget
        let targetText =
            settings.preferredForwardBufferDuration > 0
            ? "preferredForwardBufferDuration \(formatParameterNumber(target)) s"
            : "the automatic forward buffer (\(formatParameterNumber(target)) s)"
        if spec.name == "bba" {
            let reservoir = number(spec, "reservoir") ?? 5
            let cushion = number(spec, "cushion") ?? 10
            if reservoir + cushion > target {
                warnings.append(
                    "\(place): \(spec.label): reservoir \(formatParameterNumber(reservoir)) s + cushion "
                        + "\(formatParameterNumber(cushion)) s is above \(targetText); the buffer never reaches "
                        + "the top of the map, so the top variants are never chosen")
            }
        }
        if spec.name == "bola", (number(spec, "minimumBuffer") ?? 10) >= target {
            warnings.append(
                "\(place): \(spec.label): minimumBuffer \(formatParameterNumber(number(spec, "minimumBuffer") ?? 10)) s "
                    + "is at or above \(targetText); BOLA fetches the lowest variant up to it, so it never rises")
        }
        if spec.name == "bola-e" {
            let bolaTarget = max(number(spec, "bufferTimeDefault") ?? 18, 10 + 2 * Double(content.variantCount))
            if bolaTarget > target {
                warnings.append(
                    "\(place): \(spec.label): BOLA's buffer target \(formatParameterNumber(bolaTarget)) s "
                        + "(max(bufferTimeDefault, 10 + 2N)) is above \(targetText); the player stops requesting "
                        + "before BOLA reaches its top variants")
            }
        }
        if let lowest = content.variants.first {
            let peak = settings.preferredPeakBitRate
            if peak > 0 && peak < lowest.bitrateBps {
                warnings.append(
                    "\(place): preferredPeakBitRate \(formatParameterNumber(peak)) bit/s is below the lowest "
                        + "variant (\(formatParameterNumber(lowest.bitrateBps)) bit/s), so only the lowest plays; "
                        + "the value is in bit/s (kbit/s × 1000?)")
            }
            if settings.rateLimitBps.isFinite && settings.rateLimitBps < lowest.bitrateBps {
                warnings.append(
                    "\(place): rateLimitKbps \(formatParameterNumber(settings.rateLimitBps / 1000)) is below the "
                        + "lowest variant (\(formatParameterNumber(lowest.bitrateBps / 1000)) kbit/s); every "
                        + "segment downloads slower than it plays, so the player must stall")
            }
            if let limit = settings.preferredMaximumResolution,
                let smallest = content.variants.compactMap(\.resolution).min(by: {
                    $0.width * $0.height < $1.width * $1.height
                }),
                smallest.width > limit.width || smallest.height > limit.height
            {
                warnings.append(
                    "\(place): preferredMaximumResolution \(limit) is below every variant's resolution "
                        + "(smallest \(smallest)), so only the lowest variant plays")
            }
        }
        if let longest = content.segmentDurations.max(), settings.preferredForwardBufferDuration > 0,
            settings.preferredForwardBufferDuration < longest
        {
            warnings.append(
                "\(place): preferredForwardBufferDuration \(formatParameterNumber(target)) s is shorter than a "
                    + "segment (\(formatParameterNumber(longest)) s); the player can hold at most one segment ahead")
        }
        return warnings
    }

    static func number(_ spec: PolicySpec, _ name: String) -> Double? {
        guard let value = spec.parameters.first(where: { $0.name == name })?.value, case .number(let x) = value
        else { return nil }
        return x
    }

    static func unique(_ lines: [String]) -> [String] {
        var seen: Set<String> = []
        return lines.filter { seen.insert($0).inserted }
    }
}
