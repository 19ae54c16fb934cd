/// Progress checks without an event each: a policy that may abandon requests (`bola-e`, `dynamic`, `hlsjs`) asks
/// for a report every 50–100 ms of each download, but most reports change nothing. Before scheduling the next
/// check, the player bounds what the checks ahead will report (received bits from the link's capacity curve and
/// the flow's share, the buffer from the playhead) and asks the policy (``ABRPolicy/progressOutlook(in:)``) over
/// growing runs of checks; it schedules one event at the first check the policy may act on, on the polling
/// chain's own instants (t + interval, added check by check as the chain adds them), so that check happens at the
/// same instant as when every check was an event.
///
/// The checks skipped are still owed: each brought the link up to its instant (the link's accounting depends on
/// every instant it is brought to) and fed the policy's records. They are run, in order and without events,
/// before anything can see their effect: before any later event of this player (``runSkippedChecks(before:)``),
/// and before the link is brought past one (``SharedLink/runPendingChecks``). When the transfer finishes as the
/// link's only uncapped flow, the checks before it are dropped: the flow's state goes with it, and the policy was
/// shown not to act at any of them (its records start again with the next request). After any change of the
/// link's flows the plan is made again from the next owed check.
extension Player {
    /// Whether the checks of the request in flight may be planned rather than polled: a fluid transfer on the link,
    /// not from the cache, not chunked, for a player outside a coordination group and not live.
    var canSkipProgressChecks: Bool {
        guard let current = download.request, download.isFluid, !current.fromCache, !download.isChunked,
            current.firstByteTime != nil, !isLive, coordinator == nil
        else { return false }
        return true
    }

    /// Runs the owed checks before `time`, in order (none of them abandons: the plan showed it).
    func runSkippedChecks(before time: Double) {
        while let check = download.nextCheck, check < time {
            runOneSkippedCheck()
        }
    }

    /// Runs the next owed check (``Downloader/nextCheck``) without an event.
    func runOneSkippedCheck() {
        guard let check = download.nextCheck else { return }
        let decision = progressDecision(at: check)
        assert(decision == .keepGoing, "a skipped progress check abandoned its request")
        download.nextCheck = check + download.checkInterval
        skippedChecks?.noteChanged(link: linkIndex)
    }

    /// Plans the checks from the polling chain's instant `next` on: schedules the event at the first check the
    /// policy may act on, and owes the link the checks before it.
    func planProgressChecks(from next: Double) {
        kernel.cancel(&download.progressTimer)
        download.nextCheck = nil
        download.plannedAtFlowChange = link.flowChangeCount
        guard canSkipProgressChecks, let ledger = skippedChecks, let first = firstCheckThatMayAct(from: next)
        else {
            download.progressTimer = kernel.schedule(at: next, .player(index, .progressCheck))
            return
        }
        if first > next {
            download.nextCheck = next
            ledger.owe(self, link: linkIndex)
        }
        if first.isFinite { download.progressTimer = kernel.schedule(at: first, .player(index, .progressCheck)) }
    }

    /// The most checks one plan looks ahead (a later check is an event, which plans again).
    static let plannedChecksLimit = 4096

    /// The first check from `next` on, along the polling chain, at which the policy may act (`.infinity`: none
    /// before the transfer finishes); `nil` when the checks cannot be bounded (the link is capped).
    func firstCheckThatMayAct(from next: Double) -> Double? {
        guard let firstByte = download.request?.firstByteTime, let segment = download.request?.segment,
            let variant = download.request?.variant, let totalBits = download.request?.bits,
            let requestTime = download.request?.requestTime,
            let receivedNow = link.projectedReceivedBits(owner: index, at: link.lastUpdate)
        else { return nil }
        let step = download.checkInterval
        let end = link.projectedFinish(owner: index)
        let context = makeContext(at: next, buffer: playhead.bufferLevel(at: next))
        let margin = 1e-9
        var start = next
        var counted = 0
        var floor = Double.infinity
        var floorSum = 0.0
        var everyCheckReceives = true
        var recordedChecks = 0
        var recordedBufferHigh = -Double.infinity
        var size = 1
        // A lower bound on the bits received at any check from `time` on (the bits so far: they only grow).
        var known = (time: -Double.infinity, bits: receivedNow)
        while start < end {
            if counted >= Self.plannedChecksLimit { return start }
            // The block: `size` checks from `start`, none at or after the transfer's end.
            var last = start
            var count = 1
            while count < size {
                let following = last + step
                if following >= end { break }
                last = following
                count += 1
            }
            let bufferAtStart = playhead.bufferLevel(at: start)
            let bufferAtLast = playhead.bufferLevel(at: last)
            let elapsedAtMost = (last - firstByte) * (1 + margin)
            // First with what is known without looking at the curve again (the bits at an earlier instant).
            var window = ProgressWindow(
                segment: segment, variant: variant, totalBits: totalBits,
                requestTime: requestTime, firstByteTime: firstByte, firstTime: start, lastTime: last,
                uncountedChecks: counted + count, receivedAtLeast: known.bits, receivedAtMost: totalBits,
                averageRateFloor: min(floor, known.bits / elapsedAtMost), windowRateFloor: known.bits / elapsedAtMost,
                earlierChecks: recordedChecks, earlierRateFloorSum: floorSum, everyCheckReceives: false,
                earlierBufferHigh: recordedBufferHigh, bufferLow: min(bufferAtStart, bufferAtLast),
                bufferHigh: max(bufferAtStart, bufferAtLast), context: context)
            // Idle checks take no record a later check depends on: they stay out of the records' bounds.
            if policy.progressOutlook(in: window) == .idle {
                counted += count
                start = last + step
                size = 2 * count
                continue
            }
            // Then with the bits at the block's two ends.
            if known.time < start - 1.5 * step {
                guard let bits = link.projectedReceivedBits(owner: index, at: start) else { return nil }
                known = (start, max(bits * (1 - margin) - 1, 0))
            }
            guard let atLast = link.projectedReceivedBits(owner: index, at: last) else { return nil }
            window.receivedAtLeast = known.bits
            window.receivedAtMost = atLast * (1 + margin) + 1
            window.windowRateFloor = known.bits / elapsedAtMost
            window.averageRateFloor = min(floor, window.windowRateFloor)
            window.everyCheckReceives = everyCheckReceives && known.bits > 0
            let outlook = policy.progressOutlook(in: window)
            if outlook == .mayAct {
                if count == 1 { return start }
                size = max(1, count / 2)
                continue
            }
            if outlook == .recordsOnly {
                floor = window.averageRateFloor
                floorSum += Double(count) * window.windowRateFloor
                everyCheckReceives = window.everyCheckReceives
                recordedChecks += count
                recordedBufferHigh = max(recordedBufferHigh, window.bufferHigh)
            }
            counted += count
            known = (last, max(atLast * (1 - margin) - 1, 0))
            start = last + step
            // Records are bounded from each block's first bits: short blocks keep that bound close.
            size = count + max(1, count / 4)
        }
        return .infinity
    }
}

/// The progress checks players skipped and still owe their links, per link: the link asks for them
/// (``SharedLink/runPendingChecks``) before it is brought past the earliest, and they run in time order. Built by
/// ``Simulation`` for a run that records no timeline and has no live player (a timeline row or a latency sample
/// may be taken at any check); shared by its players.
final class SkippedProgressChecks {
    /// Per link, the players that may owe it checks (some may owe none any more; they are dropped when found).
    @exclusivity(unchecked) private var owing: [[Player]]
    private let links: [SharedLink]

    /// A ledger for `links`, each of which it makes ask for the checks owed to it.
    init(links: [SharedLink]) {
        self.links = links
        owing = Array(repeating: [], count: links.count)
        for (index, link) in links.enumerated() {
            link.runPendingChecks = { [unowned self] time in self.runChecks(on: index, before: time) }
        }
    }

    /// `player` owes link `link` checks from its ``Downloader/nextCheck`` on.
    func owe(_ player: Player, link: Int) {
        if !owing[link].contains(where: { $0 === player }) { owing[link].append(player) }
        noteChanged(link: link)
    }

    /// A player's owed checks on `link` changed: the link's earliest owed check is found again.
    func noteChanged(link: Int) {
        // No player owes the link anything (every request of a policy without progress checks): nothing to find.
        if owing[link].isEmpty {
            links[link].pendingCheckTime = .infinity
            return
        }
        // Most calls find nobody to drop (after each skipped check): look before rebuilding the array.
        let settled: (Player) -> Bool = { $0.download.nextCheck == nil || $0.linkIndex != link }
        if owing[link].contains(where: settled) { owing[link].removeAll(where: settled) }
        links[link].pendingCheckTime = owing[link].reduce(Double.infinity) { min($0, $1.download.nextCheck!) }
    }

    /// Runs every check owed to `link` before `time`, earliest first.
    func runChecks(on link: Int, before time: Double) {
        while true {
            noteChanged(link: link)
            guard let player = owing[link].min(by: { $0.download.nextCheck! < $1.download.nextCheck! }),
                let check = player.download.nextCheck, check < time
            else { return }
            player.runOneSkippedCheck()
        }
    }

    /// After a change of `link`'s flows: every player owing it checks plans them again.
    func flowsChanged(on link: Int) {
        if owing[link].isEmpty {
            links[link].pendingCheckTime = .infinity
            return
        }
        let changes = links[link].flowChangeCount
        for player in owing[link] {
            guard let next = player.download.nextCheck, player.linkIndex == link,
                player.download.plannedAtFlowChange != changes
            else { continue }
            player.planProgressChecks(from: next)
        }
        noteChanged(link: link)
    }

    /// Drops every owed check (the run is over).
    func removeAll() {
        for link in owing.indices { owing[link].removeAll() }
        for link in links { link.runPendingChecks = nil }
    }
}
