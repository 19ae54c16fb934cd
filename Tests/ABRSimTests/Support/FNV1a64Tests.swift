import Testing

@testable import ABRSim

@Suite("the FNV-1a 64 hash")
struct FNV1a64Tests {
    @Test("the hash matches the published FNV-1a 64-bit test vectors")
    func publishedVectors() {
        // Landon Curt Noll's FNV test suite (isthe.com/chongo/tech/comp/fnv), 64-bit FNV-1a.
        let vectors: [(String, UInt64)] = [
            ("", 0xcbf2_9ce4_8422_2325), ("a", 0xaf63_dc4c_8601_ec8c), ("b", 0xaf63_df4c_8601_f1a5),
            ("foo", 0xdcb2_7518_fed9_d577), ("foobar", 0x8594_4171_f739_67e8),
        ]
        for (text, expected) in vectors {
            #expect(FNV1a64.hash(Array(text.utf8)) == expected, "\(text)")
        }
    }

    @Test("adding bytes in pieces gives the hash of the whole")
    func piecesEqualWhole() {
        var hasher = FNV1a64()
        hasher.add(Array("foo".utf8))
        hasher.add(Array("bar".utf8)[...])
        #expect(hasher.value == FNV1a64.hash(Array("foobar".utf8)))
        #expect(FNV1a64().value == FNV1a64.offsetBasis)
    }

    @Test("the hex form has 16 lower-case digits, leading zeros kept")
    func hexDigits() {
        #expect(FNV1a64.hex(0x8594_4171_f739_67e8) == "85944171f73967e8")
        #expect(FNV1a64.hex(0xab) == "00000000000000ab")
        #expect(FNV1a64.hex(0) == "0000000000000000")
    }
}
