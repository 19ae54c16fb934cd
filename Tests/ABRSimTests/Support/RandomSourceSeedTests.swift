import Testing

@testable import ABRSim

/// 64-bit seeds and streams give distinct generators (`docs/seeds.md`): GSL's own seeding keeps 32 bits.
@Suite("64-bit seeds and random streams")
struct RandomSourceSeedTests {
    static func draws(_ seed: UInt64, _ stream: RandomStream = .plain, count: Int = 8) -> [Double] {
        let random = RandomSource(seed: seed, stream: stream)
        return (0..<count).map { _ in random.uniform() }
    }

    @Test("seeds that differ only above their low 32 bits draw differently")
    func seedsTwoToTheThirtyTwoApartDrawDifferently() {
        for low: UInt64 in [0, 1, 7, 4_294_967_295] {
            let base = Self.draws(low)
            for high: UInt64 in [1, 2, 0xFFFF_FFFF] {
                #expect(Self.draws(low | high << 32) != base, "seed \(low | high << 32) aliases \(low)")
            }
        }
    }

    @Test("the generator state starts with the SplitMix64-mixed seed and stream")
    func theStateStartsWithTheMixedSeedAndStream() {
        // Words 0–3 are the SplitMix64 finaliser of the seed and of the stream: a bijection, so no two pairs share
        // a state. mix(0) is 0, the finaliser's fixed point; the stream's words are mixed with a constant first.
        let words = RandomSource.stateWords(seed: 1 << 32, stream: 0)
        let mixed = RandomSource.mix(1 << 32)
        #expect(words[0] == UInt32(truncatingIfNeeded: mixed) && words[1] == UInt32(mixed >> 32))
        #expect(RandomSource.stateWords(seed: 1, stream: 0)[0...1] != words[0...1])
        #expect(RandomSource.mix(0) == 0 && RandomSource.mix(1) == 0x5692_161D_100B_05E5)
        #expect(words.count == 624)
    }

    @Test("the streams of one seed draw differently from each other and the same each time")
    func streamsOfOneSeedDiffer() {
        let streams: [RandomStream] = [
            .plain, .syntheticRates(network: 0, stretch: 0), .syntheticRates(network: 0, stretch: 1),
            .syntheticRates(network: 1, stretch: 0), .syntheticOutages(network: 0, stretch: 0),
            .policy(0xFE57, player: 0), .policy(0xFE57, player: 1),
        ]
        #expect(Set(streams.map { Self.draws(9, $0) }).count == streams.count)
        #expect(Self.draws(9, .policy(0xFE57, player: 1)) == Self.draws(9, .policy(0xFE57, player: 1)))
    }

    @Test("100 000 draws from a seed above 2^32 have mean 1/2 and fill every tenth evenly")
    func drawsAreUniform() {
        // 100 000 uniforms from a seed above 2^32: mean 1/2 (standard error 0.0009) and every tenth populated.
        let random = RandomSource(seed: 0xDEAD_BEEF_CAFE, stream: .plain)
        var bins = [Int](repeating: 0, count: 10)
        var sum = 0.0
        for _ in 0..<100_000 {
            let u = random.uniform()
            sum += u
            bins[min(9, Int(u * 10))] += 1
        }
        #expect(abs(sum / 100_000 - 0.5) < 0.005)
        #expect(bins.allSatisfy { abs($0 - 10_000) < 500 })
    }
}
