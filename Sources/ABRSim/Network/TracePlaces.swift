/// Where the pieces of a ``Trace`` came from in its file: the file as the user named it, and each piece's line
/// (cooked Pensieve and CSV traces) or JSON path (`$[k]`, sabre). A problem found after reading, when the trace
/// becomes a ``CapacityCurve`` (pieces that do not advance the clock, a period too small to carry a bit), is thus
/// reported at its line or path rather than without a place: the one place that attaches it is
/// ``locate(_:)``, called by ``Trace/curve(atEnd:)``. Made by the trace readers.
public struct TracePlaces: Sendable {
    /// How a piece index maps to a place in the file.
    public enum Kind: Sendable {
        /// Piece k came from line `lines[k]`.
        case lines([Int32])
        /// Piece k is element k of the top-level JSON array.
        case arrayElements
        /// The pieces are not one per line (mahimahi bins): every problem is the file's, over `lines 1–N`.
        case wholeFile(lastLine: Int)
    }

    /// The file, as the user named it.
    public var file: String
    /// The piece-to-place mapping.
    public var kind: Kind

    /// The places of a trace read from `file`.
    public init(file: String, kind: Kind) {
        self.file = file
        self.kind = kind
    }

    /// The place of piece `piece`.
    public func location(ofPiece piece: Int) -> String {
        switch kind {
        case .lines(let lines):
            return lines.indices.contains(piece) ? "line \(lines[piece])" : wholeLocation
        case .arrayElements:
            return "$[\(piece)]"
        case .wholeFile:
            return wholeLocation
        }
    }

    /// The place of a problem with the trace as a whole.
    public var wholeLocation: String {
        switch kind {
        case .lines(let lines): return lines.isEmpty ? "line 1" : "lines 1–\(lines.last!)"
        case .arrayElements: return "$"
        case .wholeFile(let lastLine): return "lines 1–\(max(lastLine, 1))"
        }
    }

    /// `error` (from the curve, without a file) located in this file: `piece N` becomes that piece's line or path,
    /// no location the whole file's. An error that already names a file is returned unchanged.
    public func locate(_ error: InputError) -> InputError {
        guard error.file == nil else { return error }
        var located = error
        located.file = file
        if let text = error.location, text.hasPrefix("piece "), let piece = Int(text.dropFirst(6)) {
            located.location = location(ofPiece: piece)
        } else {
            located.location = error.location.map { wholeLocation + " (\($0))" } ?? wholeLocation
        }
        return located
    }
}
