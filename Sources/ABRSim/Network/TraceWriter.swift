/// Writes a ``Trace`` in any ``TraceFormat``, for `abrsim trace convert`.
///
/// Reading the bytes back gives the same capacity curve up to the rounding of decimal output and unit
/// conversions, except for mahimahi, which quantises time to whole milliseconds and bits to 1500-byte packets
/// (see ``MahimahiTrace``). Formats without latency (mahimahi, pensieve) or loss (all but CSV) drop them, and
/// only CSV keeps a final rate different from the last piece's.
public enum TraceWriter {
    /// The file content of `trace` in `format`; throws an ``InputError`` if the trace's shape is invalid or
    /// cannot be expressed (a mahimahi period under 1 ms or with no packet at all).
    public static func write(_ trace: Trace, format: TraceFormat) throws -> [UInt8] {
        _ = try trace.curve(atEnd: .loop)  // validates the shape
        return try format.definition.write(trace)
    }
}
