import ABRSim

/// The dash.js and ExoPlayer catch-up reference tables (`Tests/Fixtures/reference/live`) and how they are compared.
package enum CatchUpReferenceFixture {
    package static let folder = TestPaths.reference + "/live/"

    package static func load(_ name: String) throws -> CSVTable {
        try CSVTable.parse(try InputFile.readAll(folder + name), file: name)
    }

    package static func relativeDifference(_ a: String, _ b: String) -> Double {
        let x = Double(a)!
        let y = Double(b)!
        return x == y ? 0 : abs(x - y) / max(abs(x), abs(y))
    }
}
