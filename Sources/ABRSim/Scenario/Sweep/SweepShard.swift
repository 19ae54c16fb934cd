/// One of N deterministic slices of a sweep, for spreading it over machines (`--shard K/N`, K from 1 to N).
///
/// Shard K takes the runs whose index is ≡ K − 1 (mod N): runs K − 1, K − 1 + N, K − 1 + 2N, … Interleaving
/// (rather than contiguous blocks) spreads long traces and slow policies evenly over the shards, and keeps every
/// shard's runs in global order, so `merge` restores the order of a single sweep by taking one run from each shard
/// in turn. Used by ``SweepRunner``, ``SweepStore`` and ``SweepMerge``.
public struct SweepShard: Sendable, Equatable, CustomStringConvertible {
    /// K: which slice, 1-based.
    public var index: Int
    /// N: how many slices.
    public var count: Int

    /// The whole sweep (shard 1/1).
    public static let whole = SweepShard(index: 1, count: 1)

    /// Shard `index` of `count`; `1 ≤ index ≤ count` is a precondition (use ``parse(_:)`` for user text).
    public init(index: Int, count: Int) {
        precondition(count >= 1 && (1...count).contains(index), "shard \(index)/\(count) out of range")
        self.index = index
        self.count = count
    }

    /// Parses `K/N` as given to `--shard`.
    public static func parse(_ text: String, source: String = "--shard") throws -> SweepShard {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let k = Int(parts[0]), let n = Int(parts[1]) else {
            throw InputError(
                InputPlace(position: InputPlace.Position(text: source)),
                .expected("K/N such as 2/3", found: "'\(text)'"))
        }
        guard n >= 1, k >= 1, k <= n else {
            throw InputError(
                InputPlace(position: InputPlace.Position(text: source)),
                .mustBe(nil, rule: "K/N with 1 ≤ K ≤ N", found: "'\(text)'"))
        }
        return SweepShard(index: k, count: n)
    }

    /// How many of `total` runs this shard takes.
    public func runCount(of total: Int) -> Int {
        let first = index - 1
        return first >= total ? 0 : (total - 1 - first) / count + 1
    }

    /// The global index of this shard's run at `position` (0-based within the shard).
    public func globalRun(at position: Int) -> Int { position * count + index - 1 }

    /// `K/N`.
    public var description: String { "\(index)/\(count)" }
}
