import ABRSimTestSupport
import Foundation
import Testing

@testable import ABRSim

/// A PNG decoder in python3's standard library (zlib and the five row filters): `decode(path)` gives width, height,
/// bytes per pixel and the unfiltered rows. The two scripts below start with it.
private let pngDecoder = #"""
    import struct, sys, zlib
    def decode(path):
        data = open(path, 'rb').read()
        assert data[:8] == b'\x89PNG\r\n\x1a\n'
        pos, idat = 8, b''
        while pos < len(data):
            length, kind = struct.unpack('>I4s', data[pos:pos + 8])
            body = data[pos + 8:pos + 8 + length]
            if kind == b'IHDR':
                width, height, depth, colour = struct.unpack('>IIBB', body[:10])
            elif kind == b'IDAT':
                idat += body
            pos += 12 + length
        assert depth == 8
        bpp = {0: 1, 2: 3, 4: 2, 6: 4}[colour]
        raw = zlib.decompress(idat)
        stride = width * bpp
        previous = bytearray(stride)
        rows = []
        for y in range(height):
            kind = raw[y * (stride + 1)]
            line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
            for i in range(stride):
                a = line[i - bpp] if i >= bpp else 0
                b = previous[i]
                c = previous[i - bpp] if i >= bpp else 0
                if kind == 1: line[i] = (line[i] + a) & 255
                elif kind == 2: line[i] = (line[i] + b) & 255
                elif kind == 3: line[i] = (line[i] + (a + b) // 2) & 255
                elif kind == 4:
                    p = a + b - c
                    pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                    line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
            rows.append(bytes(line))
            previous = line
        return width, height, bpp, rows

    """#

/// Prints a PNG's "width height distinct-colours".
private let pngProbe =
    pngDecoder + #"""
        width, height, bpp, rows = decode(sys.argv[1])
        print(width, height, len({row[x:x + bpp] for row in rows for x in range(0, len(row), bpp)}))
        """#

/// Prints how many pixels of two PNGs of the same size differ by more than 64 in some channel (a mark present in
/// one picture and not in the other, not an anti-aliasing shade).
private let pngDifference =
    pngDecoder + #"""
        w1, h1, bpp, a = decode(sys.argv[1])
        w2, h2, _, b = decode(sys.argv[2])
        assert (w1, h1) == (w2, h2)
        count = 0
        for ra, rb in zip(a, b):
            if ra == rb: continue
            for x in range(0, len(ra), bpp):
                if max(abs(ra[x + k] - rb[x + k]) for k in range(min(bpp, 3))) > 64: count += 1
        print(count)
        """#

/// Whether `rsvg-convert` (Debian librsvg2-bin, installed by scripts/setup) is on the PATH.
private let rsvgAvailable: Bool = {
    (try? run("sh", ["-c", "command -v rsvg-convert"]))?.0 == 0
}()

/// Runs `executable` with `arguments`; returns its status and standard output.
private func run(_ executable: String, _ arguments: [String]) throws -> (Int32, String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = [executable] + arguments
    let out = Pipe()
    process.standardOutput = out
    process.standardError = Pipe()
    try process.run()
    let data = out.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: data, as: UTF8.self))
}

@Suite("plots drawn and rendered")
struct PlotsRenderingTests {
    static func read(_ path: String) throws -> String {
        try String(contentsOfFile: path, encoding: .utf8)
    }

    /// `page` without its lines saying how it came about (the command, the results' writer, the links).
    static func withoutProvenance(_ page: String) -> String {
        page.split(separator: "\n").filter {
            !$0.hasPrefix("<p>Drawn by") && !$0.hasPrefix("<p>Results written by") && !$0.hasPrefix("<p>Full tables")
        }.joined(separator: "\n")
    }

    /// The hrefs of the page's "Full tables" line.
    static func links(_ page: String) -> [String] {
        guard let line = page.split(separator: "\n").first(where: { $0.hasPrefix("<p>Full tables") }) else { return [] }
        return line.components(separatedBy: "href=\"").dropFirst().map { String($0.prefix { $0 != "\"" }) }
    }

    @Test("the default scenario's plots are well-formed, self-contained, render to a PNG, and show the descent to 3G")
    func theDefaultScenarioPlotsParseRenderAndShowTheDescent() throws {
        let directory = TestPaths.scratch("plots")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let outcome = try runABRSim([
            "run", TestPaths.scenarios + "/wifi-lte-3g.json", "--out", directory + "/r", "--plots", directory + "/p",
        ])
        #expect(outcome.status == 0, "\(outcome.standardError)")
        let svg = try Self.read(directory + "/p/timeline.svg")
        let html = try Self.read(directory + "/p/index.html")
        #expect(isWellFormedXML(svg))
        #expect(isWellFormedXML(html))
        // Self-contained: the plot inlined, no scripts, nothing fetched.
        #expect(html.contains("<svg"))
        #expect(html.contains("throughput(safety=0.9,estimator=ewma)"))
        #expect(!html.contains("<script") && !html.contains("src=") && !html.contains("<link"))

        // The capacity file shows the descent: the WiFi-class first 120 s carry several times what 3G does.
        let data = try RunPlotData.load(directory: directory + "/r")
        func mean(_ range: ClosedRange<Double>) -> Double {
            let values = data.capacity.filter { range.contains($0.time) }.map(\.kbps)
            return values.reduce(0, +) / Double(values.count)
        }
        #expect(mean(0...120) > 4 * mean(270...600))
        #expect(data.players.count == 1 && data.players[0].timeline.count > 10)

        // Rendered by rsvg-convert (Debian librsvg2-bin, from scripts/setup) at 40 % (python decodes it quickly):
        // a PNG of the SVG's width × 0.4, not blank.
        let png = directory + "/timeline.png"
        let (status, _) = try run("rsvg-convert", ["--zoom", "0.4", directory + "/p/timeline.svg", "-o", png])
        #expect(status == 0, "rsvg-convert failed; run scripts/setup")
        let probe = writeFile(directory, "probe.py", pngProbe)
        let (probeStatus, text) = try run("python3", [probe, png])
        #expect(probeStatus == 0)
        let numbers = text.split(separator: " ").compactMap { Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
        #expect(numbers.count == 3)
        #expect(numbers.first == 440)
        #expect((numbers.last ?? 0) > 8, "the PNG is (nearly) one colour: \(text)")
    }

    @Test("plot redraws the same files from the CSV alone, and refuses missing or broken tables")
    func plotRedrawsTheSameFilesFromTheCSVAlone() throws {
        let directory = TestPaths.scratch("replot")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let results = directory + "/results/stall"
        let first = try runABRSim(["run", TestPaths.scenarios + "/tunnel-stall.json", "--out", results])
        #expect(first.status == 0, "\(first.standardError)")
        let again = try runABRSim(["plot", results])
        #expect(again.status == 0, "\(again.standardError)")
        #expect(
            try Self.read(results + "/plots/timeline.svg") == Self.read(directory + "/plots/stall/timeline.svg"),
            "timeline.svg differs when redrawn")
        // The pages differ only in how they came about: the command that drew them and the links to the results.
        let drawn = try Self.read(results + "/plots/index.html")
        let redrawn = try Self.read(directory + "/plots/stall/index.html")
        #expect(Self.withoutProvenance(drawn) == Self.withoutProvenance(redrawn))
        #expect(drawn.contains("<p>Drawn by <code>abrsim run \(TestPaths.scenarios)/tunnel-stall.json</code></p>"))
        #expect(redrawn.contains("<p>Drawn by <code>abrsim plot \(results)</code></p>"))
        #expect(redrawn.contains("<p>Results written by <code>abrsim run \(TestPaths.scenarios)/tunnel-stall.json"))
        for (page, folder) in [(drawn, results + "/plots"), (redrawn, directory + "/plots/stall")] {
            let links = Self.links(page)
            #expect(links.count == 3)
            for link in links {
                #expect(FileManager.default.fileExists(atPath: folder + "/" + link), "\(link) from \(folder)")
            }
        }
        // Stalls are shaded (vermillion) and the buffering state appears in the strip.
        let svg = try Self.read(results + "/plots/timeline.svg")
        #expect(svg.contains("fill=\"\(Palette.vermillion)\" fill-opacity=\"0.25\""))
        #expect(svg.contains(">buffering</text>"))

        let missing = try runABRSim(["plot", directory + "/nowhere"])
        #expect(missing.status == 2)
        let stretches = try Self.read(results + "/stretches.csv")
        writeFile(results, "stretches.csv", "stretch,label,start_s,end_s\n0,a,5,1\n")
        let backwards = try runABRSim(["plot", results, "--out", directory + "/x"])
        #expect(backwards.status == 2)
        #expect(backwards.standardError.contains("stretches.csv") && backwards.standardError.contains("2"))
        #expect(!FileManager.default.fileExists(atPath: directory + "/x"))
        writeFile(results, "stretches.csv", stretches)
        try FileManager.default.removeItem(atPath: results + "/capacity.csv")
        let broken = try runABRSim(["plot", results, "--out", directory + "/x"])
        #expect(broken.status == 2)
        #expect(broken.standardError.contains("capacity.csv"))
        #expect(!FileManager.default.fileExists(atPath: directory + "/x"))
    }

    @Test(
        "players with the same settings and data are each visible in the rendered picture",
        .enabled(if: rsvgAvailable, "rsvg-convert is missing (Debian librsvg2-bin); run scripts/setup"))
    func playersWithTheSameSettingsAreEachVisibleInThePicture() throws {
        let directory = TestPaths.scratch("visible")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let outcome = try runABRSim([
            "run", TestPaths.scenarios + "/multiview-priority.json", "--out", directory + "/r", "--plots",
            directory + "/p",
        ])
        #expect(outcome.status == 0, "\(outcome.standardError)")
        let svg = try Self.read(directory + "/p/timeline.svg")
        #expect(isWellFormedXML(svg))
        #expect(SVGElements(svg).strayCoordinates == [])
        let probe = writeFile(directory, "difference.py", pngDifference)
        func render(_ text: String, _ name: String) throws -> String {
            let source = writeFile(directory, name + ".svg", text)
            let png = directory + "/" + name + ".png"
            let (status, _) = try run("rsvg-convert", ["--zoom", "0.5", source, "-o", png])
            #expect(status == 0, "rsvg-convert failed on \(name)")
            return png
        }
        let whole = try render(svg, "whole")
        // The three tiles have the same settings and the same data. Each tile's lines, taken out of the picture,
        // leave a visible hole: its pixels are not covered by another player's.
        for (index, player) in [(1, "tile1"), (2, "tile2"), (3, "tile3")] {
            let without = svg.split(separator: "\n").filter {
                !($0.hasPrefix("<polyline") && $0.contains("stroke=\"\(Palette.series(index))\""))
            }.joined(separator: "\n")
            #expect(without != svg)
            let (status, text) = try run("python3", [probe, whole, try render(without, "without-" + player)])
            #expect(status == 0)
            let differing = Int(text.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
            #expect(differing > 200, "\(player)'s lines cover only \(differing) pixels of their own")
        }
    }

    @Test("a sweep is plotted with paired differences against the chosen baseline, and an unknown one is refused")
    func aSweepIsPlottedWithPairedDifferencesAgainstTheChosenBaseline() throws {
        let directory = TestPaths.scratch("sweep-plots")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        // A sweep's summary.csv (the columns the plots read): two bba settings and throughput on three traces.
        // QoE of bba(reservoir=5,…) − throughput per trace: 2, 4, 6 (mean 4); of bba(reservoir=10,…): −1, −1, −1.
        var rows = ["scenario,player,policy,trace,qoe_lin,avg_bitrate_kbps,stall_s"]
        for (trace, base) in [("a", 10.0), ("b", 20.0), ("c", 30.0)] {
            rows.append("s,p,throughput,\(trace),\(base),1000,0")
            rows.append("s,p,\"bba(reservoir=5,cushion=30)\",\(trace),\(base + base / 5),1200,1")
            rows.append("s,p,\"bba(reservoir=10,cushion=30)\",\(trace),\(base - 1),900,0")
        }
        try FileManager.default.createDirectory(atPath: directory + "/s", withIntermediateDirectories: true)
        writeFile(directory + "/s", "summary.csv", rows.joined(separator: "\n") + "\n")
        let wrong = try runABRSim(["plot", directory + "/s", "--out", directory + "/bad", "--baseline", "nope"])
        #expect(wrong.status == 2)
        #expect(wrong.standardError.contains("--baseline") && wrong.standardError.contains("'nope'"))
        #expect(!FileManager.default.fileExists(atPath: directory + "/bad"))

        let plot = try runABRSim(["plot", directory + "/s", "--out", directory + "/p", "--baseline", "throughput"])
        #expect(plot.status == 0, "\(plot.standardError)")
        let html = try Self.read(directory + "/p/index.html")
        #expect(isWellFormedXML(html))
        #expect(html.contains("<th>qoe_lin − throughput</th>"))
        #expect(html.contains("<td>+4.00 [-0.97, 8.97] (n = 3)</td>"))  // sd 2, t(0.975, 2) = 4.3027
        #expect(html.contains("<td>-1.00 [-1.00, -1.00] (n = 3)</td>"))
        for link in Self.links(html) {
            #expect(FileManager.default.fileExists(atPath: directory + "/p/" + link), "\(link)")
        }
        for metric in ["qoe_lin", "avg_bitrate_kbps", "stall_s"] {
            let diff = SVGElements(try Self.read(directory + "/p/diff-\(metric).svg"))
            #expect(diff.strayCoordinates == [])
            // Both bba settings against throughput, each with its whole label; three traces each.
            #expect(
                diff.role("category-label").map(\.text) == [
                    "bba(reservoir=5,cushion=30)", "bba(reservoir=10,cushion=30)",
                ])
            #expect(diff.role("interval").count == 2)
            #expect(diff.elements.filter { $0.text == "n = 3" }.count == 2)
        }
    }
}
