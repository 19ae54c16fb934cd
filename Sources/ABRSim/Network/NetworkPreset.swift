/// A named, constant network condition after Apple's Network Link Conditioner (NLC) or Chrome DevTools.
///
/// Used by scenarios (`preset: "3g"`) and by ``NetworkStretch/preset(_:seconds:)`` in composite networks. Only
/// the downlink matters to a streaming client, so each preset keeps the downlink bandwidth, the round-trip
/// delay seen by a request, and the downlink loss rate.
///
/// Sources (see docs/reference-players.md §6 and docs/reference-literature.md §5):
/// - NLC: Apple publishes no table. Confidence **M** = matches a third-party script copying NLC (ipfw/dummynet,
///   "tested on MacOSX 10.8"); **L** = commonly reported values of the current pane, not verified. The RTT is the
///   pane's down delay plus up delay (dummynet delays each direction).
/// - Chrome DevTools / Puppeteer `PredefinedNetworkConditions` (copied from DevTools' `NetworkManager.ts`),
///   confidence **H** (read from code): the values already include DevTools' request-level adjustment factors
///   (throughput × 0.8 or 0.9, latency × 5, 3.75 or 2.75), and the latency is a request round trip.
/// - "Unlimited" bandwidth (High Latency DNS, 100% Loss) is represented as ``unlimitedBps``, 1 Gbit/s: faster
///   than any ladder, finite so that capacity arithmetic stays finite.
public struct NetworkPreset: Sendable, Equatable {
    /// Scenario key: lowercase with dashes, e.g. `3g`, `very-bad-network`.
    public let name: String
    /// Display name as the source spells it, e.g. `3G`, `Very Bad Network`.
    public let title: String
    /// Downlink capacity in bit/s.
    public let downlinkBps: Double
    /// Round-trip delay before the first byte of a request, in seconds (NLC: down delay + up delay).
    public let rttSeconds: Double
    /// Downlink packet loss rate in [0, 1].
    public let lossRate: Double
    /// Where the values come from.
    public let source: String
    /// How sure the values are: `H` (read from code), `M` (matches a script copying NLC), `L` (commonly reported).
    public let confidence: String

    /// The capacity used for "unlimited" bandwidth: 1 Gbit/s.
    public static let unlimitedBps = 1e9

    static let nlcOld =
        "Apple Network Link Conditioner (old pane), via a third-party ipfw script copying NLC"
        + " (docs/reference-players.md §6)"
    static let nlc = "Apple Network Link Conditioner, commonly reported pane values (docs/reference-players.md §6)"
    static let chrome =
        "Chrome DevTools NetworkManager.ts via Puppeteer PredefinedNetworkConditions"
        + " (docs/reference-literature.md §5)"

    /// Every preset, NLC profiles first, then Chrome DevTools ones.
    public static let catalogue: [NetworkPreset] = [
        // NLC "3G" (old "3G, Average"): 780 kbit/s, 100 + 100 ms, 0 % loss. M.
        NetworkPreset(
            name: "3g", title: "3G", downlinkBps: 780e3, rttSeconds: 0.2, lossRate: 0, source: nlcOld, confidence: "M"),
        // NLC "3G, Good": 850 kbit/s, 100 + 100 ms. M.
        NetworkPreset(
            name: "3g-good", title: "3G, Good", downlinkBps: 850e3, rttSeconds: 0.2, lossRate: 0, source: nlcOld,
            confidence: "M"),
        // NLC "3G, Lossy": 780 kbit/s, 100 + 100 ms, 1 % down loss. M.
        NetworkPreset(
            name: "3g-lossy", title: "3G, Lossy", downlinkBps: 780e3, rttSeconds: 0.2, lossRate: 0.01, source: nlcOld,
            confidence: "M"),
        // NLC "Edge" (old "Edge, Average"): 240 kbit/s, 400 + 440 ms. M.
        NetworkPreset(
            name: "edge", title: "Edge", downlinkBps: 240e3, rttSeconds: 0.84, lossRate: 0, source: nlcOld,
            confidence: "M"),
        // NLC "Edge, Good": 250 kbit/s, 350 + 370 ms. M.
        NetworkPreset(
            name: "edge-good", title: "Edge, Good", downlinkBps: 250e3, rttSeconds: 0.72, lossRate: 0, source: nlcOld,
            confidence: "M"),
        // NLC "Edge, Lossy": 240 kbit/s, 400 + 440 ms, 1 % down loss. M.
        NetworkPreset(
            name: "edge-lossy", title: "Edge, Lossy", downlinkBps: 240e3, rttSeconds: 0.84, lossRate: 0.01,
            source: nlcOld, confidence: "M"),
        // NLC "DSL": 2 Mbit/s, 5 + 5 ms. L.
        NetworkPreset(
            name: "dsl", title: "DSL", downlinkBps: 2e6, rttSeconds: 0.01, lossRate: 0, source: nlc, confidence: "L"),
        // NLC "LTE": 50 Mbit/s, 50 + 65 ms. L.
        NetworkPreset(
            name: "lte", title: "LTE", downlinkBps: 50e6, rttSeconds: 0.115, lossRate: 0, source: nlc, confidence: "L"),
        // NLC "WiFi": 40 Mbit/s, 1 + 1 ms. L.
        NetworkPreset(
            name: "wifi", title: "WiFi", downlinkBps: 40e6, rttSeconds: 0.002, lossRate: 0, source: nlc,
            confidence: "L"),
        // NLC "WiFi 802.11ac": 250 Mbit/s, 1 + 1 ms. L.
        NetworkPreset(
            name: "wifi-ac", title: "WiFi 802.11ac", downlinkBps: 250e6, rttSeconds: 0.002, lossRate: 0, source: nlc,
            confidence: "L"),
        // NLC "Very Bad Network": 1 Mbit/s, 500 + 500 ms, 10 % loss each way (the downlink's is kept). L.
        NetworkPreset(
            name: "very-bad-network", title: "Very Bad Network", downlinkBps: 1e6, rttSeconds: 1.0, lossRate: 0.1,
            source: nlc, confidence: "L"),
        // NLC "High Latency DNS": unlimited, no delay, no loss; its ≈ 3000 ms DNS delay is not modelled. L.
        NetworkPreset(
            name: "high-latency-dns", title: "High Latency DNS", downlinkBps: unlimitedBps, rttSeconds: 0,
            lossRate: 0, source: nlc + "; the ≈ 3 s DNS delay is not modelled", confidence: "L"),
        // NLC "100% Loss": unlimited, no delay, 100 % loss: nothing is ever delivered under the loss cap. L.
        NetworkPreset(
            name: "100-loss", title: "100% Loss", downlinkBps: unlimitedBps, rttSeconds: 0, lossRate: 1, source: nlc,
            confidence: "L"),
        // DevTools "Slow 3G": 500 kbit/s × 0.8 = 400 kbit/s, 400 ms × 5 = 2000 ms. H.
        NetworkPreset(
            name: "slow-3g", title: "Slow 3G", downlinkBps: 400e3, rttSeconds: 2.0, lossRate: 0, source: chrome,
            confidence: "H"),
        // DevTools "Fast 3G": 1.6 Mbit/s × 0.9 = 1.44 Mbit/s, 150 ms × 3.75 = 562.5 ms. H.
        NetworkPreset(
            name: "fast-3g", title: "Fast 3G", downlinkBps: 1.44e6, rttSeconds: 0.5625, lossRate: 0, source: chrome,
            confidence: "H"),
        // DevTools "Slow 4G": an alias of Fast 3G (crbug 342406608). H.
        NetworkPreset(
            name: "slow-4g", title: "Slow 4G", downlinkBps: 1.44e6, rttSeconds: 0.5625, lossRate: 0,
            source: chrome + "; alias of Fast 3G (crbug 342406608)", confidence: "H"),
        // DevTools "Fast 4G": 9 Mbit/s × 0.9 = 8.1 Mbit/s, 60 ms × 2.75 = 165 ms. H.
        NetworkPreset(
            name: "fast-4g", title: "Fast 4G", downlinkBps: 8.1e6, rttSeconds: 0.165, lossRate: 0, source: chrome,
            confidence: "H"),
    ]

    /// Alternative spellings (after normalisation) and the preset they mean.
    static let aliases: [String: String] = [
        "wi-fi": "wifi", "wifi-802.11ac": "wifi-ac", "wi-fi-802.11ac": "wifi-ac", "802.11ac": "wifi-ac",
        "3g-average": "3g", "edge-average": "edge", "100-percent-loss": "100-loss", "very-bad": "very-bad-network",
    ]

    /// The preset called `name`: the key (`3g`, `wifi-ac`) or the title as the source spells it (`3G, Good`,
    /// `Wi-Fi`, `100% Loss`), in any case, with spaces, underscores or dashes; `nil` if there is none.
    public static func named(_ name: String) -> NetworkPreset? {
        let key = lookupKey(name)
        let resolved = aliases[key] ?? key
        return catalogue.first { $0.name == resolved }
    }

    /// Every name a scenario's `preset` accepts: the constant presets' keys, then the step presets'.
    public static var allNames: [String] { catalogue.map(\.name) + NetworkStepPreset.catalogue.map(\.name) }

    /// `name` normalised for look-up: lowercase, spaces, underscores, commas and dashes as single dashes, no `%`.
    static func lookupKey(_ name: String) -> String {
        var key = ""
        for character in name.lowercased() {
            switch character {
            case " ", "_", "-", ",":
                if !key.isEmpty, key.last != "-" { key.append("-") }
            case "%": break
            default: key.append(character)
            }
        }
        while key.last == "-" { key.removeLast() }
        return key
    }
}

/// A named network that changes in steps: a list of (duration, downlink) pairs played once from time 0, at a fixed
/// RTT and no loss.
///
/// The catalogue holds the five network profiles of the ACM MMSys 2020 Twitch low-latency grand challenge
/// (cascade, intra-cascade, spike, slow jitters, fast jitters), in the challenge's two sets: `normal` (the one used
/// for scoring, ladder 200/600/1000 kbit/s) and `fast` (ladder 100/300). The challenge's `run.js` played each step
/// with Chrome DevTools' `Network.emulateNetworkConditions`, `downloadThroughput` = speed × 1024 / 8 bytes/s and
/// `latency` 0, so its "kbps" are units of 1024 bit/s and the RTT is 0.
///
/// A scenario names one like a constant preset, `"network": {"preset": "twitch-cascade"}` (the scenario's `atEnd`
/// decides what follows the last step; `loop` by default), or as a stretch, `{"preset": "twitch-spike",
/// "seconds": 60}` (a shorter profile loops inside the stretch, a longer one is cut). Read by the scenario's
/// network decoder through ``named(_:)``; ``stretch(seconds:)`` turns it into a ``NetworkStretch``. Times are
/// seconds, rates bit/s.
public struct NetworkStepPreset: Sendable, Equatable {
    /// One step: its length in seconds and its downlink in bit/s.
    public struct Step: Sendable, Equatable {
        /// How long the step lasts, seconds.
        public let seconds: Double
        /// Downlink capacity during the step, bit/s.
        public let downlinkBps: Double
    }

    /// Scenario key, e.g. `twitch-cascade` (normal set) or `twitch-fast-set-cascade` (fast set).
    public let name: String
    /// Display name, e.g. `Twitch MMSys'20 PROFILE_CASCADE (normal set)`.
    public let title: String
    /// The steps in order, from time 0.
    public let steps: [Step]
    /// Round-trip delay before the first byte of a request, seconds (the challenge's emulated latency: 0).
    public let rttSeconds: Double
    /// Where the values come from.
    public let source: String

    /// The unit of the challenge's "kbps": 1024 bit/s (`run.js` sets `downloadThroughput` = kbps × 1024 / 8).
    public static let challengeKbpsUnitBps = 1024.0

    static let challengeSource =
        "twitchtv/acm-mmsys-2020-grand-challenge@718700007e0e533be705895c97c8cf109bd11f70, "
        + "normal-network-patterns.js and fast-network-patterns.js as played by run.js (kbps × 1024 bit/s, latency 0)"

    /// The profiles as the challenge lists them: (constant name, [(speed in challenge kbps, duration s)]) per set.
    static let challengeProfiles: [(set: String, profiles: [(String, [(Double, Double)])])] = [
        (
            "normal",
            [
                ("CASCADE", [(1200, 30), (800, 30), (400, 30), (800, 30), (1200, 30)]),
                (
                    "INTRA_CASCADE",
                    [
                        (1000, 15), (800, 15), (600, 15), (400, 15), (200, 15), (400, 15), (600, 15), (800, 15),
                        (1000, 15),
                    ]
                ),
                ("SPIKE", [(1200, 10), (300, 10), (800, 10)]),
                ("SLOW_JITTERS", [(500, 5), (1200, 5), (500, 5), (1200, 5), (500, 5), (1200, 5)]),
                ("FAST_JITTERS", [(500, 0.25), (1200, 5), (500, 0.1), (1200, 1), (500, 0.25), (1200, 5)]),
            ]
        ),
        (
            "fast",
            [
                ("CASCADE", [(500, 30), (200, 30), (500, 30)]),
                ("INTRA_CASCADE", [(300, 15), (200, 15), (100, 15), (200, 15), (300, 15)]),
                ("SPIKE", [(500, 10), (200, 10), (400, 10)]),
                ("SLOW_JITTERS", [(200, 5), (500, 5), (200, 5), (500, 5), (200, 5), (500, 5)]),
                ("FAST_JITTERS", [(200, 0.25), (500, 5), (200, 0.1), (500, 1), (200, 0.25), (500, 5)]),
            ]
        ),
    ]

    /// Every step preset: the challenge's normal set (`twitch-cascade`, `twitch-intra-cascade`, `twitch-spike`,
    /// `twitch-slow-jitters`, `twitch-fast-jitters`), then its fast set (`twitch-fast-set-…`).
    public static let catalogue: [NetworkStepPreset] = challengeProfiles.flatMap { set, profiles in
        profiles.map { profile, steps in
            let key = NetworkPreset.lookupKey(profile)
            return NetworkStepPreset(
                name: set == "normal" ? "twitch-\(key)" : "twitch-\(set)-set-\(key)",
                title: "Twitch MMSys'20 PROFILE_\(profile) (\(set) set)",
                steps: steps.map { Step(seconds: $0.1, downlinkBps: $0.0 * challengeKbpsUnitBps) }, rttSeconds: 0,
                source: challengeSource)
        }
    }

    /// The step preset called `name` (any case, spaces, underscores or dashes): its key (`twitch-spike`), or the
    /// challenge's set and constant as in the reference files (`normal_PROFILE_SPIKE`, `fast_PROFILE_CASCADE`);
    /// `nil` if there is none.
    public static func named(_ name: String) -> NetworkStepPreset? {
        let key = NetworkPreset.lookupKey(name)
        return catalogue.first { preset in
            preset.name == key || "\(preset.setName)-profile-\(preset.profileKey)" == key
        }
    }

    /// The challenge set, `normal` or `fast`.
    var setName: String { name.hasPrefix("twitch-fast-set-") ? "fast" : "normal" }

    /// The profile part of the key, e.g. `intra-cascade`.
    var profileKey: String {
        String(name.dropFirst(setName == "fast" ? "twitch-fast-set-".count : "twitch-".count))
    }

    /// Start of each step in seconds: the running sum of the durations before it.
    public var starts: [Double] {
        var starts: [Double] = []
        var t = 0.0
        for step in steps {
            starts.append(t)
            t += step.seconds
        }
        return starts
    }

    /// Length of the whole profile in seconds.
    public var durationSeconds: Double { steps.reduce(0) { $0 + $1.seconds } }

    /// The profile as a one-period trace named after the preset, every step at ``rttSeconds``.
    public var trace: Trace {
        Trace(
            name: name, starts: starts, ratesBps: steps.map(\.downlinkBps), duration: durationSeconds,
            latencySeconds: steps.map { _ in rttSeconds }, lossRates: steps.map { _ in 0 })
    }

    /// The profile as a network stretch lasting `seconds` (`nil`: the profile's own length, then the network's end
    /// behaviour).
    public func stretch(seconds: Double?) -> NetworkStretch {
        .trace(trace, seconds: seconds, rttSeconds: rttSeconds)
    }
}
