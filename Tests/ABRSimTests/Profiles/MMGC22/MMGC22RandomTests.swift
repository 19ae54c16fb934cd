import Testing

@testable import ABRSim

/// MT19937 and the numpy and CPython draws built on it, against published outputs and values the two libraries
/// give (numpy 1.x/2.x legacy `RandomState`, CPython 3.x `random`).
@Suite("MT19937 and the numpy and CPython draws built on it")
struct MMGC22RandomTests {
    /// The reference implementation's own checks: `init_genrand(5489)` (C++'s `std::mt19937` default: the first
    /// output, and the 10 000th that the C++ standard requires) and `mt19937ar.out`'s `init_by_array`.
    @Test(
        "MT19937 from seed 5489 draws 3 499 211 612 first and 4 123 659 995 10 000th; init_by_array gives mt19937ar.out"
    )
    func mersenneTwisterMatchesThePublishedOutputs() {
        var seeded = MersenneTwister(seed: 5489)
        #expect(seeded.nextUInt32() == 3_499_211_612)
        for _ in 2..<10_000 { _ = seeded.nextUInt32() }
        #expect(seeded.nextUInt32() == 4_123_659_995)
        var keyed = MersenneTwister(key: [0x123, 0x234, 0x345, 0x456])
        #expect(
            (0..<5).map({ _ in keyed.nextUInt32() }) == [
                1_067_595_299, 955_945_823, 477_289_528, 4_107_218_783, 4_228_976_476,
            ])
    }

    @Test(
        "numpy's legacy draws match numpy: 0.3745401188473625 and run.py's default user from seed 42, choice from seed 7"
    )
    func numpyLegacyDrawsMatchNumpy() {
        var state = NumpyLegacyRandomState(seed: 42)
        #expect(state.randomSample() == 0.3745401188473625)
        // np.random.seed(42); np.random.randint(100, size=(7, 2)): run.py's default user, as samples.csv has it.
        state = NumpyLegacyRandomState(seed: 42)
        #expect(state.randint(100, count: 14) == [51, 92, 14, 71, 60, 20, 82, 86, 74, 74, 87, 99, 23, 2])
        // …then test_user_samples' randint(10000, size=(1001, 1)).
        let seeds = state.randint(10000, count: 1001)
        #expect(Array(seeds.prefix(3)) == [1685, 769, 6949] && seeds[1000] == 6024)
        #expect(MMGC22Users.sampleSeed(0) == 1685 && MMGC22Users.sampleSeed(1000) == 6024)
        // np.random.seed(7); np.random.choice([0, 1000, 2000], p=[0.2, 0.5, 0.3]) picks 0 (u = 0.0763…), and the
        // generator moves on by one double.
        state = NumpyLegacyRandomState(seed: 7)
        #expect(state.choiceIndex(probabilities: [0.2, 0.5, 0.3]) == 0)
        #expect(state.randomSample() == 0.7799187922401146)
    }

    @Test("masked randint(5) rejects 5, 6 and 7, so 500 draws give exactly 0 to 4, and randint(1) gives only 0")
    func maskedRandintRejectsValuesAboveTheRange() {
        // randint(5) masks with 7 and rejects 5, 6, 7: every value is below 5 and all five appear.
        var state = NumpyLegacyRandomState(seed: 1)
        let values = state.randint(5, count: 500)
        #expect(Set(values) == Set(0..<5))
        var single = NumpyLegacyRandomState(seed: 9)
        #expect(single.randint(1, count: 3) == [0, 0, 0])
    }

    @Test(
        "Python's random matches CPython for seeds 42, 0, 2⁴⁰ + 7 and −5 (as 5), and uniform(16000, 17000) for seed 4606"
    )
    func pythonRandomMatchesCPython() {
        var python = PythonRandom(seed: 42)
        #expect(python.random() == 0.6394267984578837)
        python = PythonRandom(seed: 0)
        #expect(python.random() == 0.8444218515250481)
        // A seed of two 32-bit words, and a negative seed (its absolute value is used).
        python = PythonRandom(seed: (1 << 40) + 7)
        #expect(python.random() == 0.6137037779936511)
        var negative = PythonRandom(seed: -5)
        var positive = PythonRandom(seed: 5)
        #expect(negative.random() == 0.6229016948897019 && positive.random() == 0.6229016948897019)
        python = PythonRandom(seed: 4606)
        #expect(python.uniform(16000, 17000) == 16547.478587842965)
    }

    @Test("probabilities numpy's choice would crash on, not summing to 1 or negative, are reported; (0.5, 0.5) is not")
    func numpyRefusesProbabilitiesAsTheChallengeWouldCrash() {
        #expect(NumpyLegacyRandomState.numpyChoiceProblem([0.5, 0.5]) == nil)
        #expect(
            NumpyLegacyRandomState.numpyChoiceProblem([0.5, 0.4])
                == .mustBe("the sum of the probabilities", rule: "1", found: "\(0.5 + 0.4)"))
        #expect(
            NumpyLegacyRandomState.numpyChoiceProblem([1.2, -0.2])
                == .mustBe("the probabilities", rule: "≥ 0", found: "-0.2"))
    }
}
