/// The lines of an HLS playlist (RFC 8216 §4.1): UTF-8 text, `#EXTM3U` first, blank lines ignored.
///
/// Streams the file through ``LineReader`` (invalid UTF-8 is an error naming the line) and hands out trimmed,
/// non-blank lines with their numbers. Used by ``HLSMasterPlaylist`` and ``HLSMediaPlaylist``.
struct HLSPlaylistLines {
    /// A non-blank line and its 1-based number.
    struct Line {
        let text: String
        let number: Int
    }

    /// The non-blank lines after `#EXTM3U`.
    let lines: [Line]

    /// Reads the playlist at `path`; throws unless it is UTF-8 text starting with `#EXTM3U`.
    init(path: String) throws {
        let reader = try LineReader(path: path)
        var lines: [Line] = []
        var sawHeader = false
        while let raw = try reader.nextString() {
            let text = String(Substring(raw).trimmingBlanks())
            if text.isEmpty { continue }
            if !sawHeader {
                guard text == "#EXTM3U" else {
                    throw InputError(
                        .line(path, reader.lineNumber),
                        .expected("#EXTM3U first (an HLS playlist)", found: "‘\(text.prefix(40))’"))
                }
                sawHeader = true
                continue
            }
            lines.append(Line(text: text, number: reader.lineNumber))
            if lines.count > 10_000_000 {
                throw InputError(.file(path), .overLimit("\(lines.count) lines", limit: "10000000"))
            }
        }
        guard sawHeader else { throw InputError(.line(path, 1), .empty("playlist", no: "#EXTM3U")) }
        self.lines = lines
    }

    /// The value after `tag:` when `text` starts with it, else `nil`.
    static func value(of tag: String, in text: String) -> Substring? {
        guard text.hasPrefix(tag + ":") else { return nil }
        return text.dropFirst(tag.count + 1)
    }

    /// A decimal number that is finite, or `nil`.
    static func number(_ text: Substring) -> Double? {
        guard let value = Double(text.trimmingBlanks()), value.isFinite else { return nil }
        return value
    }
}
