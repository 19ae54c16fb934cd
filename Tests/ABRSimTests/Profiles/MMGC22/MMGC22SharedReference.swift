import ABRSimTestSupport
import Foundation

@testable import ABRSim

/// The challenge's data and its simulator's outputs, read from `../shared` beside the package when they are there
/// (they have no licence, so they are never copied into the repository). Tests that need them are disabled with
/// ``isPresent`` when they are absent.
enum MMGC22SharedReference {
    static let data = TestPaths.packageRoot + "/../shared/data/shortvideo"
    static let reference = TestPaths.packageRoot + "/../shared/reference/shortvideo"

    /// Both folders are present.
    static let isPresent =
        FileManager.default.fileExists(atPath: data + "/short_video_size")
        && FileManager.default.fileExists(atPath: reference + "/results.csv")

    /// A CSV file's rows as dictionaries keyed by the header (the files have no quoted fields).
    static func rows(_ file: String) throws -> [[String: String]] {
        let text = try String(contentsOfFile: reference + "/" + file, encoding: .utf8)
        // The files end their lines with CRLF, which Swift reads as one Character.
        let lines = text.split(whereSeparator: { $0 == "\n" || $0 == "\r\n" }).map({
            $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        })
        let header = lines[0]
        return lines.dropFirst().map({ Dictionary(uniqueKeysWithValues: zip(header, $0)) })
    }

    /// The user of a row: `default`, or sample J.
    static func user(_ row: [String: String]) -> MMGC22Run.User {
        row["scheme"] == "default" ? .defaultUser : .sample(Int(row["sample"]!)!)
    }

    /// The relative difference, 0 when both are 0.
    static func relativeError(_ a: Double, _ b: Double) -> Double {
        a == b ? 0 : abs(a - b) / max(abs(a), abs(b))
    }
}
