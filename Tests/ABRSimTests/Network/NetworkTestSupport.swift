import ABRSimTestSupport

@testable import ABRSim

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Paths and scratch files for the Network tests.
enum NetworkTestSupport {
    /// The real traces shipped in the package (`scenarios/data/traces`).
    static var traces: String { TestPaths.data + "/traces" }

    /// A fresh temporary directory for one test.
    static func temporaryDirectory() -> String {
        var template = Array("/tmp/abrsim-network-XXXXXX".utf8CString)
        return template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)!) }
    }

    /// Writes `text` to `name` in a fresh temporary directory and returns the path.
    static func write(_ text: String, name: String = "trace.txt") -> String {
        writeBytes(Array(text.utf8), name: name)
    }

    /// Writes `bytes` to `name` in a fresh temporary directory and returns the path.
    static func writeBytes(_ bytes: [UInt8], name: String = "trace.txt") -> String {
        let path = temporaryDirectory() + "/" + name
        let handle = fopen(path, "wb")!
        _ = bytes.withUnsafeBytes { fwrite($0.baseAddress, 1, $0.count, handle) }
        fclose(handle)
        return path
    }

    /// The file names in `directory`, sorted.
    static func files(in directory: String) -> [String] {
        guard let dir = opendir(directory) else { return [] }
        defer { closedir(dir) }
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) {
                String(cString: $0.bindMemory(to: CChar.self).baseAddress!)
            }
            if !name.hasPrefix(".") { names.append(name) }
        }
        return names.sorted()
    }

    /// Whether `a` and `b` agree to `relative` tolerance (or both within `relative` of zero).
    static func close(_ a: Double, _ b: Double, relative: Double = 1e-9) -> Bool {
        if a == b { return true }
        return abs(a - b) <= relative * max(abs(a), abs(b), 1)
    }

    /// A deterministic 64-bit generator (SplitMix64) for tests that need random shapes.
    struct SplitMix: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        mutating func uniform() -> Double { Double(next() >> 11) / Double(1 << 53) }
    }
}

/// The suite every Network test nests in, so `swift test --filter Network` selects them all.
enum NetworkTests {}
