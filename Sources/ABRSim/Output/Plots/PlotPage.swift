/// What a plots page says beyond the records: the command line that drew it, the command that wrote the results
/// (when another one drew the page), and where the results folder is from the plots folder (for the links to the
/// full CSV files). Given by the commands to ``PlotBundles``.
public struct PlotPage: Sendable {
    /// The command line that drew the plots ("" for none).
    public var command: String
    /// The command that wrote the results folder ("" when it is the one that drew the plots).
    public var resultsWrittenBy: String
    /// The results folder as a path relative to the plots folder ("" when they are the same folder).
    public var resultsLink: String

    /// A page's account.
    public init(command: String = "", resultsWrittenBy: String = "", resultsLink: String = "") {
        self.command = command
        self.resultsWrittenBy = resultsWrittenBy
        self.resultsLink = resultsLink
    }

    /// The href of the results file `name` from the plots folder.
    func link(_ name: String) -> String { resultsLink.isEmpty ? name : resultsLink + "/" + name }

    /// The href from folder `from` to folder `to` (both made absolute): `../r` for siblings, `..` for a
    /// subfolder's parent, "" for the same folder.
    public static func relativeLink(from: String, to: String) -> String {
        let a = absolutePath(from).split(separator: "/")
        let b = absolutePath(to).split(separator: "/")
        var common = 0
        while common < min(a.count, b.count), a[common] == b[common] { common += 1 }
        let ups = [String](repeating: "..", count: a.count - common)
        return (ups + b[common...].map(String.init)).joined(separator: "/")
    }
}
