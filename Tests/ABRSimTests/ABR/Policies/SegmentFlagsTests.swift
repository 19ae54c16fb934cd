import Testing

@testable import ABRSim

@Suite("segment flags")
struct SegmentFlagsTests {
    @Test("segment flags hold what a set holds for 500 random indices around and beyond 64-bit word boundaries")
    func holdsTheSameSegmentsAsASetAcrossWordBoundaries() {
        let random = RandomSource(seed: 3)
        var flags = SegmentFlags()
        var reference = Set<Int>()
        for _ in 0..<500 {
            // Indices around the 64-bit word boundaries and far beyond the words held so far.
            let segment = [63, 64, 65, 127, 128, 0, 1000][random.integer(below: 7)] + random.integer(below: 3)
            flags.insert(segment)
            reference.insert(segment)
        }
        for segment in 0..<1100 { #expect(flags.contains(segment) == reference.contains(segment)) }
        #expect(!SegmentFlags().contains(0))
        #expect(!flags.contains(100_000))
    }
}
