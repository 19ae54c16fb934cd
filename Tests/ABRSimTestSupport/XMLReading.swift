import ABRSim
import Foundation

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// Whether `text` is well-formed XML, by Foundation's XML parser.
package func isWellFormedXML(_ text: String) -> Bool {
    XMLParser(data: Data(text.utf8)).parse()
}

/// The elements of an SVG document: name and attributes, in document order (a test's reading of the drawing,
/// independent of the code that wrote it).
package struct SVGElements {
    package struct Element {
        package var name: String
        package var attributes: [String: String]
        package var text: String

        package func number(_ key: String) -> Double? { attributes[key].flatMap(Double.init) }
    }

    package var elements: [Element] = []
    package var width = 0.0
    package var height = 0.0

    package init(_ svg: String) {
        let pattern = try! NSRegularExpression(pattern: #"<(\w+)((?:\s+[\w:-]+="[^"]*")*)\s*(/?)>(?:([^<]*)</\1>)?"#)
        let attribute = try! NSRegularExpression(pattern: #"([\w:-]+)="([^"]*)""#)
        let text = svg as NSString
        for match in pattern.matches(in: svg, range: NSRange(location: 0, length: text.length)) {
            let name = text.substring(with: match.range(at: 1))
            let attributeText = text.substring(with: match.range(at: 2)) as NSString
            var attributes: [String: String] = [:]
            for pair in attribute.matches(
                in: attributeText as String, range: NSRange(location: 0, length: attributeText.length))
            {
                attributes[attributeText.substring(with: pair.range(at: 1))] = attributeText.substring(
                    with: pair.range(at: 2))
            }
            let body = match.range(at: 4).location == NSNotFound ? "" : text.substring(with: match.range(at: 4))
            if name == "svg" {
                width = Double(attributes["width"] ?? "") ?? 0
                height = Double(attributes["height"] ?? "") ?? 0
                continue
            }
            elements.append(Element(name: name, attributes: attributes, text: body))
        }
    }

    /// The elements of `class` `role`.
    package func role(_ role: String) -> [Element] { elements.filter { $0.attributes["class"] == role } }

    /// Every coordinate that is not a finite number inside the drawing (half a pixel of slack): empty for a
    /// drawing with no NaN, no infinity and nothing off the canvas.
    package var strayCoordinates: [String] {
        var stray: [String] = []
        func check(_ value: String, _ limit: Double, _ what: String) {
            guard let number = Double(value), number.isFinite, number >= -0.5, number <= limit + 0.5 else {
                stray.append("\(what)=\(value)")
                return
            }
        }
        for element in elements {
            for (key, limit) in [("x", width), ("x1", width), ("x2", width), ("width", width)] {
                if let value = element.attributes[key] { check(value, limit, "\(element.name).\(key)") }
            }
            for (key, limit) in [("y", height), ("y1", height), ("y2", height), ("height", height)] {
                if let value = element.attributes[key] { check(value, limit, "\(element.name).\(key)") }
            }
            if let points = element.attributes["points"] {
                for pair in points.split(separator: " ") {
                    let xy = pair.split(separator: ",")
                    guard xy.count == 2 else {
                        stray.append("points \(pair)")
                        continue
                    }
                    check(String(xy[0]), width, "\(element.name).points.x")
                    check(String(xy[1]), height, "\(element.name).points.y")
                }
            }
        }
        return stray
    }
}

/// A JUnit document read back with Foundation's XML parser: attributes of the last element of each name,
/// every test case's name, failure messages and the text of the failures.
package final class JUnitParse: NSObject, XMLParserDelegate {
    package var attributes: [String: [String: String]] = [:]
    package var caseNames: [String] = []
    package var failureMessages: [String] = []
    package var failureText = ""
    private var inFailure = false

    package init(_ xml: String) throws {
        super.init()
        let parser = XMLParser(data: Data(xml.utf8))
        parser.delegate = self
        guard parser.parse() else {
            throw InputError(.none, .invalid("XML does not parse: \(parser.parserError.map { "\($0)" } ?? "?")"))
        }
    }

    package func parser(
        _ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
        attributes: [String: String]
    ) {
        self.attributes[name] = attributes
        if name == "testcase" { caseNames.append(attributes["name"] ?? "") }
        if name == "failure" {
            failureMessages.append(attributes["message"] ?? "")
            inFailure = true
        }
    }

    package func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?)
    {
        if name == "failure" { inFailure = false }
    }

    package func parser(_ parser: XMLParser, foundCharacters string: String) {
        if inFailure { failureText += string }
    }
}
