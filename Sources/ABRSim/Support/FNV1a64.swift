/// The 64-bit FNV-1a hash (Fowler, Noll, Vo): a cheap, stable fingerprint of bytes, not a security hash.
///
/// Fed in pieces with ``add(_:)`` or at once with ``hash(_:)``; shown as 16 lower-case hex digits by ``hex(_:)``.
/// Called by output manifests (``OutputIdentity``) and sweeps (scenario, column and input fingerprints).
public struct FNV1a64: Sendable {
    /// The offset basis, the hash of no bytes.
    public static let offsetBasis: UInt64 = 0xcbf2_9ce4_8422_2325
    /// The 64-bit FNV prime.
    public static let prime: UInt64 = 0x100_0000_01b3

    /// The hash of every byte added so far.
    public private(set) var value: UInt64 = offsetBasis

    /// A hash of no bytes.
    public init() {}

    /// Folds `bytes` into the hash, in order.
    public mutating func add(_ bytes: some Sequence<UInt8>) {
        var hash = value
        for byte in bytes {
            hash ^= UInt64(byte)
            hash = hash &* Self.prime
        }
        value = hash
    }

    /// The hash of `bytes`.
    public static func hash(_ bytes: some Sequence<UInt8>) -> UInt64 {
        var hasher = FNV1a64()
        hasher.add(bytes)
        return hasher.value
    }

    /// `value` as 16 lower-case hex digits.
    public static func hex(_ value: UInt64) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}
