/// One rung of a bitrate ladder: an HLS variant stream (`#EXT-X-STREAM-INF`) or a DASH representation.
///
/// `bitrateBps` is the declared peak (HLS `BANDWIDTH`) in bit/s, the figure ABR policies compare against
/// throughput; the actual per-segment sizes live in ``Content``. Built by the content readers and the scenario
/// loader; read by players, policies and metrics.
public struct Variant: Equatable, Sendable {
    /// Declared bandwidth (HLS `BANDWIDTH`), bit/s.
    public var bitrateBps: Double
    /// Declared average bandwidth (HLS `AVERAGE-BANDWIDTH`), bit/s, when the source gives one.
    public var averageBitrateBps: Double?
    /// Picture size, when known.
    public var resolution: Resolution?
    /// RFC 6381 codec string (HLS `CODECS`), when known.
    public var codecs: String?

    /// A variant with the given declared bandwidth in bit/s and optional details.
    public init(
        bitrateBps: Double, averageBitrateBps: Double? = nil, resolution: Resolution? = nil, codecs: String? = nil
    ) {
        self.bitrateBps = bitrateBps
        self.averageBitrateBps = averageBitrateBps
        self.resolution = resolution
        self.codecs = codecs
    }

    /// The declared bandwidth in kbit/s.
    public var bitrateKbps: Double { bitrateBps / 1000 }
}

/// A picture size in pixels (HLS `RESOLUTION=1280x720`). Used in variant descriptions and resolution caps.
public struct Resolution: Equatable, Hashable, Sendable, CustomStringConvertible {
    /// Width in pixels.
    public var width: Int
    /// Height in pixels.
    public var height: Int

    /// A resolution of `width` × `height` pixels.
    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    /// Parses `WIDTHxHEIGHT` (as in HLS `RESOLUTION`); `nil` unless both are positive integers.
    public init?(parsing text: String) {
        let parts = text.split(separator: "x", omittingEmptySubsequences: false)
        guard parts.count == 2, let width = Int(parts[0]), let height = Int(parts[1]), width > 0, height > 0 else {
            return nil
        }
        self.init(width: width, height: height)
    }

    /// `WIDTHxHEIGHT`.
    public var description: String { "\(width)x\(height)" }

    /// The number of pixels in one picture.
    public var pixelCount: Int { width * height }
}

/// Checks on a ladder shared by every content source; errors are ``InputError``s with the caller's context.
enum Ladder {
    /// Throws unless there is at least one bitrate and all are finite, positive and strictly ascending.
    /// `unit` and `scale` only shape the message (bitrates are reported as the user wrote them).
    static func validate(
        bitratesBps: [Double], file: String? = nil, path: String? = nil, unit: String = "kbit/s", scale: Double = 1000
    ) throws {
        guard !bitratesBps.isEmpty else {
            throw InputError(
                InputPlace(file: file, position: path.map(InputPlace.Position.init(text:))),
                .noneGiven("variant", in: "the ladder"))
        }
        for (index, bitrate) in bitratesBps.enumerated() {
            guard bitrate.isFinite, bitrate > 0 else {
                throw InputError(
                    InputPlace(file: file, position: path.map(InputPlace.Position.init(text:))),
                    .mustBe(
                        "variant \(index): bitrate", rule: "a positive number", found: JSONPath.format(bitrate / scale),
                        unit: unit))
            }
            if index > 0, bitrate <= bitratesBps[index - 1] {
                throw InputError(
                    InputPlace(file: file, position: path.map(InputPlace.Position.init(text:))),
                    .outOfOrder(
                        "bitrates", order: "increase",
                        found: "variant \(index)'s \(JSONPath.format(bitrate / scale)) \(unit)",
                        after: "variant \(index - 1)'s \(JSONPath.format(bitratesBps[index - 1] / scale)) \(unit)"))
            }
        }
    }
}
