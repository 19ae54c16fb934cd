/// Conventions for simulated time, which is seconds as `Double` everywhere in ABRSim.
public enum SimulationTime {
    /// Two instants closer than this (seconds) are the same instant: it absorbs floating-point residue when
    /// comparing a buffer's run-out time with a download's arrival, so a rounding error never becomes a stall.
    public static let tolerance = 1e-9
}
