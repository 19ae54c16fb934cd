// Shared by every fuzz target (compiled into each target's binary by Tests/Fuzz/fuzz.sh, never by SwiftPM).

@testable import ABRSim

#if canImport(Glibc)
    import Glibc
#endif

/// A per-process scratch folder on tmpfs where a fuzz target writes the input it is given, so that the library's
/// readers are exercised through their real entry points (path → ``LineReader``/``InputFile`` → parser), exactly
/// as the command line calls them. Used by every target in `Tests/Fuzz/Targets/`.
enum FuzzScratch {
    /// `$ABRSIM_FUZZ_SCRATCH`, else `/dev/shm` (or `/tmp`), plus `abrsim-fuzz-<pid>`; created on first use.
    static let folder: String = {
        let base =
            getenv("ABRSIM_FUZZ_SCRATCH").map { String(cString: $0) }
            ?? (access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp")
        let folder = "\(base)/abrsim-fuzz-\(getpid())"
        mkdir(folder, 0o755)
        return folder
    }()

    /// Writes the `size` bytes at `data` to `name` inside ``folder`` (replacing it) and returns its path.
    static func write(_ data: UnsafePointer<UInt8>, _ size: Int, to name: String) -> String {
        let path = "\(folder)/\(name)"
        guard let file = fopen(path, "wb") else { fatalError("fuzz scratch: cannot write \(path)") }
        if size > 0 { precondition(fwrite(data, 1, size, file) == size, "fuzz scratch: short write to \(path)") }
        fclose(file)
        return path
    }

    /// Creates `link` inside ``folder`` pointing at `target` (an absolute path), unless it exists.
    static func link(_ name: String, to target: String) {
        let path = "\(folder)/\(name)"
        var info = stat()
        if lstat(path, &info) != 0 { symlink(target, path) }
    }

    /// Makes the sub-folders of `relative` inside ``folder``.
    static func makeFolder(_ relative: String) {
        var path = folder
        for part in relative.split(separator: "/") {
            path += "/\(part)"
            mkdir(path, 0o755)
        }
    }

    /// `$ABRSIM_FUZZ_DATA`: small copies of the shipped traces and content, prepared by `fuzz.sh`.
    static var dataFolder: String {
        guard let data = getenv("ABRSIM_FUZZ_DATA") else { fatalError("fuzz: set ABRSIM_FUZZ_DATA (fuzz.sh does)") }
        return String(cString: data)
    }
}

/// Runs one reader call for a fuzz target: a thrown ``InputError`` is the expected outcome for bad input; any
/// other error is a finding (the command line would not print it as one clear line), so the process aborts and
/// libFuzzer saves the input. With `ABRSIM_FUZZ_VERBOSE` set, prints each error (for triage: `fuzz-<target> FILE`).
func expectInputErrorsOnly(_ body: () throws -> Void) {
    do {
        try body()
        if getenv("ABRSIM_FUZZ_VERBOSE") != nil { print("accepted") }
    } catch let error as InputError {
        if getenv("ABRSIM_FUZZ_VERBOSE") != nil { print("InputError: \(error)") }
    } catch {
        fatalError("fuzz: a reader threw a non-InputError: \(error)")
    }
}
