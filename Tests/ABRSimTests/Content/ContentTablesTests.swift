import Testing

@testable import ABRSim

/// Every value `content` serves, against the tables built segment by segment from its own durations and sizes.
private func expectSameValues(
    _ content: Content, as tables: ContentTables, sourceLocation: SourceLocation = #_sourceLocation
) {
    let count = content.segmentCount
    #expect(tables.segmentCount == count, sourceLocation: sourceLocation)
    #expect(Array(content.segmentDurations) == Array(tables.durations), sourceLocation: sourceLocation)
    #expect(Array(content.segmentStarts) == Array(tables.starts), sourceLocation: sourceLocation)
    var mismatches = 0
    for segment in 0..<count {
        if content.suffixMinimumDuration(segment: segment) != tables.suffixMinimumDuration(segment: segment) {
            mismatches += 1
        }
        if content.suffixMaximumDuration(segment: segment) != tables.suffixMaximumDuration(segment: segment) {
            mismatches += 1
        }
        for variant in 0..<content.variantCount {
            if content.sizeBits(segment: segment, variant: variant)
                != tables.sizeBits(segment: segment, variant: variant)
            {
                mismatches += 1
            }
            if content.suffixMaximumBits(segment: segment, variant: variant)
                != tables.suffixMaximumBits(segment: segment, variant: variant)
            {
                mismatches += 1
            }
            if content.suffixMinimumBits(segment: segment, variant: variant)
                != tables.suffixMinimumBits(segment: segment, variant: variant)
            {
                mismatches += 1
            }
        }
    }
    for segment in 0...count {
        for variant in 0..<content.variantCount
        where content.prefixBits(before: segment, variant: variant)
            != tables.prefixBits(before: segment, variant: variant)
        {
            mismatches += 1
        }
    }
    #expect(mismatches == 0, sourceLocation: sourceLocation)
}

/// The tables of `content`'s own durations and sizes, built the tabulated way.
private func tabulated(_ content: Content) -> ContentTables {
    let sizes = (0..<content.segmentCount).map { segment in
        (0..<content.variantCount).map { content.sizeBits(segment: segment, variant: $0) }
    }
    return ContentTables.tabulated(durations: Array(content.segmentDurations), sizesBits: sizes)
}

@Suite("content tables: the closed form of constant-bitrate content")
struct ContentTablesTests {
    @Test("constant-bitrate content is held in closed form and serves the tables' values on every segment and variant")
    func closedFormEqualsTheTables() throws {
        let ladder: [Double] = [145, 365, 730, 1100, 2000, 3000, 4500, 6000, 7800]
        let cases: [(seconds: Double, count: Int?, duration: Double?)] = [
            (1, 5000, nil), (4, nil, 3601), (2, nil, 2), (4, nil, 1.5), (6, 1, nil), (0.5, nil, 1000.25),
        ]
        for item in cases {
            let content = try Content.constantBitrate(
                ladderKbps: ladder, segmentSeconds: item.seconds, segmentCount: item.count,
                durationSeconds: item.duration)
            #expect(content.isClosedForm)
            expectSameValues(content, as: tabulated(content))
        }
        // Hand-computed: 3,601 s of 4-s segments end in a 1-s one; sizes are bitrate × duration.
        let short = try Content.constantBitrate(ladderKbps: [500, 1000], segmentSeconds: 4, durationSeconds: 3601)
        #expect(short.segmentCount == 901)
        #expect(short.segmentDurations[899] == 4)
        #expect(short.segmentDurations[900] == 1)
        #expect(short.segmentStarts[900] == 3600)
        #expect(short.duration == 3601)
        #expect(short.sizeBits(segment: 900, variant: 1) == 1_000_000)
        #expect(short.prefixBits(before: 901, variant: 0) == 500_000 * 3601)
        #expect(short.suffixMinimumBits(segment: 3, variant: 1) == 1_000_000)
        #expect(short.suffixMaximumBits(segment: 3, variant: 1) == 4_000_000)
        #expect(short.suffixMinimumDuration(segment: 0) == 1)
        #expect(short.suffixMaximumDuration(segment: 900) == 1)
    }

    @Test("where k × duration differs from the running sum of durations, the content keeps its tables")
    func inexactSumsKeepTheTables() throws {
        // 0.1 added ten times is 0.9999999999999999, not 10 × 0.1 = 1.
        let content = try Content.constantBitrate(ladderKbps: [300, 750], segmentSeconds: 0.1, segmentCount: 12)
        #expect(!content.isClosedForm)
        #expect(content.segmentStarts[10] == 0.9999999999999999)
        expectSameValues(content, as: tabulated(content))
        // Sizes whose running sum is inexact: 0.1 kbit/s × 1 s = 100 bits is exact, 1/3-ish bitrates are not.
        let odd = try Content.constantBitrate(ladderKbps: [0.1234567], segmentSeconds: 1, segmentCount: 50)
        #expect(!odd.isClosedForm)
        expectSameValues(odd, as: tabulated(odd))
    }

    @Test("sizes given row by row take the closed form only when every segment but the last repeats the first")
    func rowsTakeTheClosedFormWhenUniform() throws {
        let variants = [Variant(bitrateBps: 1e6), Variant(bitrateBps: 2e6)]
        let uniform = try Content(
            variants: variants, segmentDurations: [2, 2, 2, 1], sizesBits: [[3, 5], [3, 5], [3, 5], [1, 9]])
        #expect(uniform.isClosedForm)
        #expect(uniform.segmentStarts == [0, 2, 4, 6, 7])
        #expect(uniform.suffixMaximumBits(segment: 0, variant: 1) == 9)
        #expect(uniform.suffixMinimumBits(segment: 0, variant: 0) == 1)
        expectSameValues(uniform, as: tabulated(uniform))
        let varied = try Content(
            variants: variants, segmentDurations: [2, 2, 2, 1], sizesBits: [[3, 5], [4, 5], [3, 5], [1, 9]])
        #expect(!varied.isClosedForm)
        #expect(varied.prefixBits(before: 3, variant: 0) == 10)
        expectSameValues(varied, as: tabulated(varied))
        let durations = try Content(
            variants: variants, segmentDurations: [2, 3, 2, 1], sizesBits: [[3, 5], [3, 5], [3, 5], [1, 9]])
        #expect(!durations.isClosedForm)
        #expect(durations.suffixMaximumDuration(segment: 0) == 3)
    }

    @Test("a private copy of closed-form and of tabulated content serves the same values")
    func privateCopiesServeTheSameValues() throws {
        let closed = try Content.constantBitrate(ladderKbps: [300, 4300], segmentSeconds: 4, durationSeconds: 99)
        let table = try Content.constantBitrate(ladderKbps: [300, 4300], segmentSeconds: 0.1, segmentCount: 20)
        for content in [closed, table] {
            let copy = content.privateCopy()
            #expect(copy.isClosedForm == content.isClosedForm)
            expectSameValues(copy, as: tabulated(content))
        }
    }

    @Test("a segment column reads as its entries and compares by value, whatever its form")
    func segmentColumnsReadAsCollections() {
        let closed = SegmentColumn(count: 4, step: 2.5, ramps: true, last: 9)
        #expect(Array(closed) == [0, 2.5, 5, 9])
        #expect(closed == [0, 2.5, 5, 9])
        #expect(closed.count == 4)
        let steps = SegmentColumn(count: 3, step: 4, ramps: false, last: 1)
        #expect(steps == SegmentColumn(table: [4, 4, 1]))
        #expect(steps.max() == 4)
        #expect(steps != [4, 4, 2])
    }
}
