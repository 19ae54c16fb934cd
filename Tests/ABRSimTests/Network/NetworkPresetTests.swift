import Testing

@testable import ABRSim

extension NetworkTests {
    /// The preset catalogue against the tables of reference-players.md §6 and reference-literature.md §5.
    @Suite("the network presets")
    struct NetworkPresetTests {
        @Test(
            "each network preset has the downlink, RTT and loss of the reference tables, with a source and confidence",
            arguments: [
                // name, down bit/s, RTT s (down + up delay), loss
                ("3g", 780e3, 0.2, 0.0), ("3g-good", 850e3, 0.2, 0), ("3g-lossy", 780e3, 0.2, 0.01),
                ("edge", 240e3, 0.84, 0), ("edge-good", 250e3, 0.72, 0), ("edge-lossy", 240e3, 0.84, 0.01),
                ("dsl", 2e6, 0.01, 0), ("lte", 50e6, 0.115, 0), ("wifi", 40e6, 0.002, 0), ("wifi-ac", 250e6, 0.002, 0),
                ("very-bad-network", 1e6, 1.0, 0.1), ("high-latency-dns", 1e9, 0, 0), ("100-loss", 1e9, 0, 1),
                ("slow-3g", 400e3, 2.0, 0), ("fast-3g", 1.44e6, 0.5625, 0), ("slow-4g", 1.44e6, 0.5625, 0),
                ("fast-4g", 8.1e6, 0.165, 0),
            ])
        func valuesMatchTheTables(name: String, downlinkBps: Double, rttSeconds: Double, lossRate: Double) throws {
            let preset = try #require(NetworkPreset.named(name))
            #expect(preset.name == name)
            #expect(preset.downlinkBps == downlinkBps)
            #expect(abs(preset.rttSeconds - rttSeconds) < 1e-12)
            #expect(preset.lossRate == lossRate)
            #expect(!preset.source.isEmpty)
            #expect(["H", "M", "L"].contains(preset.confidence))
        }

        @Test("the preset catalogue has seventeen presets with unique names")
        func catalogueHasSeventeenUniqueKeys() {
            let names = NetworkPreset.catalogue.map(\.name)
            #expect(names.count == 17)
            #expect(Set(names).count == names.count)
        }

        @Test("preset titles and aliases such as Wi-Fi or 100% Loss resolve to their presets, and 5g to none")
        func titlesAndAliasesResolve() {
            #expect(NetworkPreset.named("Wi-Fi")?.name == "wifi")
            #expect(NetworkPreset.named("WiFi")?.name == "wifi")
            #expect(NetworkPreset.named("WiFi 802.11ac")?.name == "wifi-ac")
            #expect(NetworkPreset.named("3G, Good")?.name == "3g-good")
            #expect(NetworkPreset.named("100% Loss")?.name == "100-loss")
            #expect(NetworkPreset.named("Very Bad Network")?.name == "very-bad-network")
            #expect(NetworkPreset.named("Slow 3G")?.name == "slow-3g")
            #expect(NetworkPreset.named("5g") == nil)
        }

        @Test("each preset's confidence follows its sources: 3g medium, lte low, fast-4g high")
        func confidenceFollowsTheSources() {
            #expect(NetworkPreset.named("3g")?.confidence == "M")
            #expect(NetworkPreset.named("lte")?.confidence == "L")
            #expect(NetworkPreset.named("fast-4g")?.confidence == "H")
        }
    }
}
