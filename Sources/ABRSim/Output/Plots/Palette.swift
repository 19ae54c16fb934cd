/// The Okabe–Ito colour-blind-safe palette (Okabe & Ito, "Color Universal Design", 2008), as SVG colours.
///
/// Plots give series the ``series`` colours in order and use the named ones for fixed meanings.
public enum Palette {
    /// Black.
    public static let black = "#000000"
    /// Orange.
    public static let orange = "#E69F00"
    /// Sky blue.
    public static let skyBlue = "#56B4E9"
    /// Bluish green.
    public static let bluishGreen = "#009E73"
    /// Yellow.
    public static let yellow = "#F0E442"
    /// Blue.
    public static let blue = "#0072B2"
    /// Vermillion.
    public static let vermillion = "#D55E00"
    /// Reddish purple.
    public static let reddishPurple = "#CC79A7"
    /// Grey for link capacity, grids and neutral fills (not an Okabe–Ito colour).
    public static let grey = "#999999"

    /// Colours for series (players, policies), most distinct first; cycles past eight.
    public static let series = [blue, orange, bluishGreen, vermillion, reddishPurple, skyBlue, black, yellow]

    /// The colour of series `index`.
    public static func series(_ index: Int) -> String { series[index % series.count] }
}
