/// The settings of one sabre run: sabre's command-line flags (`src/sabre.py`'s argparse options), with the same
/// defaults. Built by ``SabreCommandLine/parse(_:)`` from sabre's own arguments, or by ``SabrePolicySpec`` from a
/// `--policies` item; run by ``SabreSimulation``.
public struct SabreOptions: Sendable, Equatable {
    /// The ABR rules sabre has built in (`-a`).
    public enum ABR: String, Sendable, CaseIterable {
        /// `Bola`: BOLA-U, or BOLA-O with `-ao`; `-ab` the basic form.
        case bola
        /// `BolaEnh`: BOLA-E with its placeholder and insufficient-buffer rule (`-noibr` turns that off).
        case bolae
        /// `ThroughputRule`: throughput × 0.9 with the insufficient-buffer rule and 1.8 × segment abandonment.
        case throughput
        /// `Dynamic`: BOLA and the throughput rule, switching at 10 s of buffer.
        case dynamic
        /// `DynamicDash`: BOLA-E and the throughput rule, switching at 5 s and 10 s of buffer.
        case dynamicdash
    }

    /// The throughput estimators (`-ma`).
    public enum Average: String, Sendable, CaseIterable {
        /// Two bias-corrected EWMAs (`-hl`), the lower throughput and the higher latency.
        case ewma
        /// Means over the last `-ws` downloads (at most 20 kept), the lower throughput and higher latency.
        case sliding
    }

    /// Segment replacement (`-r`).
    public enum Replacement: String, Sendable, CaseIterable {
        /// No replacement.
        case none
        /// Replace the first buffered segment (after the next 1.5) below the chosen quality.
        case left
        /// Replace the last buffered segment below the chosen quality.
        case right
    }

    /// `-n`: the network file (default `network.json`).
    public var network = "network.json"
    /// `-nm`: bandwidth multiplier (default 1).
    public var networkMultiplier = 1.0
    /// `-m`: the movie file (default `movie.json`).
    public var movie = "movie.json"
    /// `-ml`: movie length, s (default: the movie's).
    public var movieLengthSeconds: Double? = nil
    /// `-a`: the ABR rule (default `bolae`).
    public var abr = ABR.bolae
    /// `-ab`: the ABR's basic form.
    public var abrBasic = false
    /// `-ao`: the ABR's oscillation-minimising form.
    public var abrOsc = false
    /// `-gp`: BOLA's γp, s (default 5); also the stall weight of the printed score.
    public var gammaP = 5.0
    /// `-noibr`: no insufficient-buffer rule.
    public var noInsufficientBufferRule = false
    /// `-ma`: the estimator (default `ewma`).
    public var movingAverage = Average.ewma
    /// `-ws`: sliding-window sizes, downloads (default [3]).
    public var windowSize: [Int] = [3]
    /// `-hl`: EWMA half-lives, s (default [3, 8]).
    public var halfLife: [Double] = [3, 8]
    /// `-s WHEN SEEK`: seek at WHEN s of movie to SEEK s.
    public var seek: (when: Double, to: Double)? = nil
    /// `-r`: segment replacement (default none).
    public var replace = Replacement.none
    /// `-b`: maximum buffer, s (default 25).
    public var maxBufferSeconds = 25.0
    /// Whether `-b` was given: sabre's default is the integer 25, a given value a float, which shows in the one
    /// number BOLA-E prints with `repr` (`60000.0`).
    public var maxBufferGiven = false
    /// `-noa`: no abandonment.
    public var noAbandon = false
    /// `-rmp`: the quality that counts as ramped up (default: the network's sustainable quality).
    public var rampupThreshold: Int? = nil
    /// `-v`: the per-download log.
    public var verbose = false

    /// Sabre's defaults.
    public init() {}

    public static func == (a: SabreOptions, b: SabreOptions) -> Bool {
        a.network == b.network && a.networkMultiplier == b.networkMultiplier && a.movie == b.movie
            && a.movieLengthSeconds == b.movieLengthSeconds && a.abr == b.abr && a.abrBasic == b.abrBasic
            && a.abrOsc == b.abrOsc && a.gammaP == b.gammaP && a.noInsufficientBufferRule == b.noInsufficientBufferRule
            && a.movingAverage == b.movingAverage && a.windowSize == b.windowSize && a.halfLife == b.halfLife
            && a.seek?.when == b.seek?.when && a.seek?.to == b.seek?.to && a.replace == b.replace
            && a.maxBufferSeconds == b.maxBufferSeconds && a.maxBufferGiven == b.maxBufferGiven
            && a.noAbandon == b.noAbandon && a.rampupThreshold == b.rampupThreshold && a.verbose == b.verbose
    }
}
