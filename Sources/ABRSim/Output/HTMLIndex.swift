/// `index.html` beside the plots: what was run (the scenario's description, the command line that drew the page,
/// the command that wrote the results), a readable summary table with links to the full CSV files, and every plot
/// inlined as SVG, in one self-contained file (no scripts, no external style sheets, fonts or images), so it opens
/// offline in any browser.
///
/// The markup is also well-formed XML (void elements self-closed), so tests can check it with an XML parser.
/// Written by `abrsim run`, `abrsim compare` and `abrsim plot` into the plots folder.
public enum HTMLIndex {
    /// A table to show: a heading, its content, and links to the full CSV files it was chosen from.
    public struct Table: Sendable {
        /// The heading above it.
        public var heading: String
        /// Its content (numbers with a fraction are shown with at most three decimals).
        public var table: CSVTable
        /// Links under it: (text, href relative to the page).
        public var links: [(text: String, href: String)]

        /// A table under `heading`.
        public init(heading: String, table: CSVTable, links: [(text: String, href: String)] = []) {
            self.heading = heading
            self.table = table
            self.links = links
        }
    }

    /// What the page says about how its results came about.
    public struct About: Sendable {
        /// The scenario's description ("" for none).
        public var description: String
        /// The command line that drew the page ("" for none).
        public var command: String
        /// The command that wrote the results folder, from its manifest, when another one drew the page ("" for
        /// none).
        public var resultsWrittenBy: String

        /// An account of a page.
        public init(description: String = "", command: String = "", resultsWrittenBy: String = "") {
            self.description = description
            self.command = command
            self.resultsWrittenBy = resultsWrittenBy
        }
    }

    /// A plot to show: a heading, the file it was written to (linked), and its drawing (inlined).
    public struct Figure: Sendable {
        /// The heading above it.
        public var heading: String
        /// The SVG file's name beside the index.
        public var file: String
        /// The drawing.
        public var svg: SVGDocument

        /// A figure under `heading`.
        public init(heading: String, file: String, svg: SVGDocument) {
            self.heading = heading
            self.file = file
            self.svg = svg
        }
    }

    /// The page titled `title`, with `about`, then `tables`, then `figures`, as UTF-8 bytes (each drawing is copied
    /// in once, with no intermediate string).
    public static func page(
        title: String, about: About = About(), note: String = "", tables: [Table], figures: [Figure]
    ) -> [UInt8] {
        var html: [UInt8] = []
        html.reserveCapacity(figures.reduce(4096) { $0 + $1.svg.byteCount + 256 })
        let add = { (text: String) in html.append(contentsOf: text.utf8) }
        add("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\"/>\n")
        add("<title>\(escapeXML(title))</title>\n<style>\n")
        add("body { font-family: Helvetica, Arial, sans-serif; margin: 24px; color: #222; }\n")
        add("table { border-collapse: collapse; font-size: 13px; margin-bottom: 24px; }\n")
        add("th, td { border: 1px solid #ccc; padding: 3px 8px; text-align: right; }\n")
        add("th { background: #f2f2f2; } td:first-child, th:first-child { text-align: left; }\n")
        add("figure { margin: 0 0 32px 0; } svg { max-width: 100%; height: auto; }\n")
        add("code { background: #f4f4f4; padding: 2px 4px; } p.description { max-width: 60em; }\n")
        add("</style>\n</head>\n<body>\n<h1>\(escapeXML(title))</h1>\n")
        if !about.description.isEmpty { add("<p class=\"description\">\(escapeXML(about.description))</p>\n") }
        if !about.command.isEmpty { add("<p>Drawn by <code>\(escapeXML(about.command))</code></p>\n") }
        if !about.resultsWrittenBy.isEmpty {
            add("<p>Results written by <code>\(escapeXML(about.resultsWrittenBy))</code></p>\n")
        }
        if !note.isEmpty { add("<p>\(escapeXML(note))</p>\n") }
        for table in tables {
            add("<h2>\(escapeXML(table.heading))</h2>\n<table>\n<tr>")
            for column in table.table.columns { add("<th>\(escapeXML(column))</th>") }
            add("</tr>\n")
            for row in table.table.rows {
                add("<tr>")
                for field in row { add("<td>\(escapeXML(cellText(field)))</td>") }
                add("</tr>\n")
            }
            add("</table>\n")
            if !table.links.isEmpty {
                let links = table.links.map { "<a href=\"\(escapeXML($0.href))\">\(escapeXML($0.text))</a>" }
                add("<p>Full tables: \(links.joined(separator: ", "))</p>\n")
            }
        }
        for figure in figures {
            add("<figure>\n<h2>\(escapeXML(figure.heading))</h2>\n")
            figure.svg.write(into: &html)
            add("<figcaption><a href=\"\(escapeXML(figure.file))\">\(escapeXML(figure.file))</a></figcaption>\n")
            add("</figure>\n")
        }
        add("</body>\n</html>\n")
        return html
    }

    /// A CSV field for people: a number with a fraction rounded to three decimals, anything else as written.
    static func cellText(_ field: String) -> String {
        guard field.contains("."), !field.contains("e"), let value = Double(field) else { return field }
        return fixedDecimals(value, 3, trimZeros: true)
    }
}
