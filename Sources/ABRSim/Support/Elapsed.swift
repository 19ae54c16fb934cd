/// Wall-clock seconds from `start` to now on the continuous clock: for progress lines, batch sizing and
/// benchmarks (never for anything a run computes). Called by `SweepRunner` and the `sweep` and `bench` commands.
public func secondsElapsed(since start: ContinuousClock.Instant) -> Double {
    (ContinuousClock.now - start) / .seconds(1)
}
