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
        let resolved = aliases[key] ?? key
        return catalogue.first { $0.name == resolved }
    }
}
