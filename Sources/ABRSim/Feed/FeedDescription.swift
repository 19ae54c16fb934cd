/// A scenario's feed (`feed` key, `docs/feed.md`): one viewer scrolling a queue of short items, each with its own
/// content, a recommendation window, a swipe model and a preload policy. Decoded by ``FeedDecoder``; run by
/// ``FeedRun``.
public struct FeedDescription: Sendable {
    /// The viewer's player: its id (the `player` column), ABR policy and settings (`content` is the first item's).
    public var viewer: PlayerDescription
    /// The items, in feed order.
    public var items: [FeedItem]
    /// How many upcoming items the app knows (≥ 1).
    public var recommendationWindow: Int
    /// The swipe model of a run with a given seed.
    public var swipe: @Sendable (UInt64) -> any SwipeModel
    /// The swipe model as written (`exponential(lambda=2)`), for the `feed.csv` table.
    public var swipeLabel: String
    /// The preload policy as written.
    public var preload: PolicySpec
    /// Where `preload` is written (its JSON path), for errors.
    public var preloadLocation: String
    /// `networkResourcePriority` of the items that preload (the playing item has the viewer's).
    public var preloadPriority: NetworkResourcePriority
    /// Whether the items share one throughput history, as `AVQueuePlayer`'s one player keeps one bandwidth
    /// estimate across items (`carryEstimate`; default `false`: each item's ABR policy starts from none).
    public var carryEstimate = false

    /// The feed with every item playing its own copy of its content, so parallel runs share no reference-counted
    /// object; items that shared content still share it (a sweep's or comparison's run, ``Content/privateCopy()``).
    public func withPrivateContent() -> FeedDescription {
        var copy = self
        var copies: [ObjectIdentifier: Content] = [:]
        for item in copy.items.indices {
            let content = copy.items[item].content
            let own = copies[ObjectIdentifier(content), default: content.privateCopy()]
            copies[ObjectIdentifier(content)] = own
            copy.items[item].content = own
        }
        return copy
    }
}

/// One item of a feed: its id (the `item` column) and content.
public struct FeedItem: Sendable {
    /// Its id.
    public var id: String
    /// What it plays.
    public var content: Content
}
