/// The shared link's side of the download-model seam: flows whose rate a ``TransferWindow`` caps.
///
/// A window is a piecewise-constant cap over the time since the flow's first byte. The link treats its round
/// boundaries like the curve's piece boundaries: the capped walks of ``SharedLink/advance(to:)`` and
/// ``SharedLink/nextCompletionTime()`` step from one to the next, water-filling each piece, so a ramp needs no
/// events of its own. Once every window has stopped limiting (and nothing else caps), the walks finish with the
/// uncapped closed form, and ended windows are dropped.
extension SharedLink {
    /// Gives `owner`'s flow `window` from time `t` on, its rounds counted from `start` (its first byte).
    public func setWindow(owner: Int, _ window: TransferWindow?, start: Double, at t: Double) {
        advance(to: t)
        guard let index = position(of: owner) else { return }
        flows[index].window = window
        if window != nil { mayHaveWindows = true }
        flows[index].windowStart = start
        dropEndedWindows(at: t)
        reassign()
    }

    /// `owner`'s share of the capacity with no window (weight over the weights of its tier; 0 without a flow).
    public func fairShare(owner: Int) -> Double {
        guard let index = position(of: owner) else { return 0 }
        return fractions[index]
    }

    /// The highest rate `curve` ever offers (bit/s): a window at or above it no longer holds a flow back.
    static func peakRate(of curve: CapacityCurve) -> Double {
        var peak = curve.atEnd == .hold ? curve.holdRateBps : 0
        for rate in curve.ratesBps where rate > peak { peak = rate }
        return peak
    }

    /// The round of `window` (started at `start`) in force at `t`: the largest k ≤ its doubling rounds with
    /// `start + k·roundSeconds ≤ t`, boundaries computed as in ``windowChange(_:start:after:)``.
    @inline(__always)
    func windowRound(_ window: TransferWindow, start: Double, at t: Double) -> Int {
        let n = window.doublingRounds
        guard n > 0, t > start else { return 0 }
        var k = min(max(Int(((t - start) / window.roundSeconds).rounded(.down)), 0), n)
        while k < n && start + Double(k + 1) * window.roundSeconds <= t { k += 1 }
        while k > 0 && start + Double(k) * window.roundSeconds > t { k -= 1 }
        return k
    }

    /// The next round boundary of `window` strictly after `t` (`.infinity` once its cap is final).
    @inline(__always)
    func windowChange(_ window: TransferWindow, start: Double, after t: Double) -> Double {
        let k = windowRound(window, start: start, at: t)
        return k < window.doublingRounds ? start + Double(k + 1) * window.roundSeconds : .infinity
    }

    /// Flow `index`'s window cap at `t` (bit/s; `.infinity` without a window).
    @inline(__always)
    func windowCap(_ index: Int, at t: Double) -> Double {
        guard let window = flows[index].window else { return .infinity }
        return window.cap(round: windowRound(window, start: flows[index].windowStart, at: t))
    }

    /// The next round boundary of any flow's window after `t` (`.infinity` if none).
    func nextWindowChange(after t: Double) -> Double {
        var next = Double.infinity
        for flow in flows {
            guard let window = flow.window else { continue }
            next = min(next, windowChange(window, start: flow.windowStart, after: t))
        }
        return next
    }

    /// The time from which nothing caps any flow (`.infinity` while a loss bound, a rate limit or a window with a
    /// finite final cap applies): the end of the last ramp.
    var cappingEnd: Double {
        if curveHasLoss { return .infinity }
        var end = -Double.infinity
        for flow in flows {
            if flow.demand.rateLimitBps.isFinite { return .infinity }
            guard let window = flow.window else { continue }
            if window.finalRateBps.isFinite { return .infinity }
            end = max(end, flow.windowStart + window.rampSeconds)
        }
        return end
    }

    /// Removes the windows that no longer limit at `t` (ramp over, no final cap).
    func dropEndedWindows(at t: Double) {
        guard mayHaveWindows else { return }
        var dropped = false
        for index in flows.indices {
            guard let window = flows[index].window, !window.finalRateBps.isFinite else { continue }
            if flows[index].windowStart + window.rampSeconds <= t {
                flows[index].window = nil
                dropped = true
            }
        }
        if dropped { anyFlowCapped = flows.contains { $0.demand.rateLimitBps.isFinite || $0.window != nil } }
    }

    /// Delivers the capacity of [`from`, `t`] uncapped (every flow its fraction), `cumulative` being S(t).
    func deliverUncapped(from: Double, to t: Double, cumulative: Double) {
        let delivered = cumulative - curve.cumulativeBits(at: from)
        for index in flows.indices {
            flows[index].remainingBits -= fractions[index] * delivered
            if delivered > 0 && fractions[index] > 0 { flows[index].uncappedDataUntil = t }
        }
    }

    /// When the first flow finishes from `from` on with nothing capping, given each flow's `remaining` bits;
    /// sets ``predictedOwner``.
    func uncappedCompletion(remaining: [Double], from: Double) -> Double {
        var needed = Double.infinity
        for index in flows.indices where fractions[index] > 0 {
            let cumulativeNeeded = remaining[index] / fractions[index]
            if cumulativeNeeded < needed {
                needed = cumulativeNeeded
                predictedOwner = flows[index].owner
            }
        }
        guard needed.isFinite else {
            predictedOwner = nil
            return .infinity
        }
        return max(from, curve.time(atCumulativeBits: curve.cumulativeBits(at: from) + needed))
    }
}

extension SharedLink {
    /// When flow `index` (one with a window) would finish if the flows stay as they are: the capped walk of
    /// ``nextCompletionTime()`` followed for this flow alone, through its ramp.
    func projectedWindowedFinish(_ index: Int) -> Double {
        var remaining = max(flows[index].remainingBits, 0)
        var from = lastUpdate
        let uncappedFrom = cappingEnd
        for _ in 0..<Self.maximumPiecesPerLookup {
            if from >= uncappedFrom {
                guard fractions[index] > 0 else { return .infinity }
                return max(
                    from, curve.time(atCumulativeBits: curve.cumulativeBits(at: from) + remaining / fractions[index]))
            }
            let to = min(curve.nextChange(after: from), nextWindowChange(after: from))
            fillRates(at: from)
            let rate = scratchRates[index]
            if rate > 0 && from + remaining / rate <= to { return from + remaining / rate }
            if to.isInfinite { return .infinity }
            remaining -= rate * (to - from)
            from = to
        }
        return from
    }
}

extension SharedLink {
    /// The mean of c(t) over [`from`, `to`] (bit/s, `to` > `from`), read in place.
    public func meanCapacity(from: Double, to: Double) -> Double { curve.bits(from: from, to: to) / (to - from) }
}
