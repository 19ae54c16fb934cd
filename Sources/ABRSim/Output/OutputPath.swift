#if canImport(Glibc)
    import Glibc
#endif

/// Checks an output path a user gave (`--out`, `--plots`, `--junit`, a default built from a scenario name) before
/// anything is written, so a path that can never work is bad input (exit 2, nothing written, no empty folders
/// left behind) rather than an output error halfway through.
///
/// Refused: an empty path; a path longer than PATH_MAX (4095 bytes) or with a component longer than NAME_MAX
/// (255 bytes); a path through an existing file (`notes.txt/out`); a folder path naming an existing file, or a
/// file path naming an existing folder. A read-only or full disk stays an output error (exit 3): it may change.
/// Called by ``OutputFolder`` and by the commands that write one file.
public enum OutputPath {
    /// The longest file name (one path component), in bytes.
    public static let nameMax = Int(NAME_MAX)
    /// The longest path, in bytes.
    public static let pathMax = Int(PATH_MAX) - 1

    /// Throws an ``InputError`` at `option` when `path` cannot be an output folder (or, with `isFile`, an output
    /// file).
    public static func check(_ path: String, option: String, isFile: Bool = false) throws {
        let kind = isFile ? "file" : "folder"
        guard !path.isEmpty else {
            throw InputError(.option(option), .expected("a \(kind) name", found: "an empty path"))
        }
        guard path.utf8.count <= pathMax else {
            throw InputError(
                .option(option),
                .overLimit("a path of \(path.utf8.count) bytes", limit: "\(pathMax)"))
        }
        let components = path.split(separator: "/", omittingEmptySubsequences: true)
        if let long = components.first(where: { $0.utf8.count > nameMax }) {
            throw InputError(
                .option(option),
                .overLimit(
                    "the name '\(long.prefix(24))…' of \(long.utf8.count) bytes in the path",
                    limit: "\(nameMax) bytes for a file name"))
        }
        if isFile, path.hasSuffix("/") || components.last == "." || components.last == ".." {
            throw InputError(
                InputPlace(file: path, position: .option(option)), .expected("a file name", found: "a folder name"))
        }
        var prefix = path.hasPrefix("/") ? "/" : ""
        for (position, component) in components.enumerated() {
            prefix += prefix.isEmpty || prefix.hasSuffix("/") ? String(component) : "/" + component
            var info = stat()
            guard stat(prefix, &info) == 0 else {
                if errno == ENOENT { return }  // the rest is created
                if errno == ENOTDIR { break }
                return  // permissions and the like: reported when writing (exit 3)
            }
            let isDirectory = (info.st_mode & S_IFMT) == S_IFDIR
            let isLast = position == components.count - 1
            if isLast && isFile {
                if isDirectory {
                    throw InputError(
                        InputPlace(file: path, position: .option(option)), .expected("a file name", found: "a folder"))
                }
                return
            }
            if !isDirectory {
                throw InputError(
                    InputPlace(file: path, position: .option(option)),
                    prefix == path
                        ? .expected("a folder", found: "a file")
                        : .within("goes through \(prefix)", .expected("a folder", found: "a file")))
            }
        }
    }

    /// ``check(_:option:isFile:)`` for an output file, and that no running sweep is writing its folder (the file
    /// would land among the sweep's rows). For the commands that write one file (`trace … --out`, `check --junit`).
    public static func checkFile(_ path: String, option: String) throws {
        try check(path, option: option, isFile: true)
        _ = try SweepLockHold(folder: InputFile.directory(of: path), keepsHolding: false)
    }

    /// The shallowest folder of `path` that does not exist yet (what writing it would create), or `nil`.
    static func firstMissingFolder(_ path: String) -> String? {
        var prefix = path.hasPrefix("/") ? "/" : ""
        for component in path.split(separator: "/", omittingEmptySubsequences: true) {
            prefix += prefix.isEmpty || prefix.hasSuffix("/") ? String(component) : "/" + component
            var info = stat()
            if stat(prefix, &info) != 0 { return prefix }
        }
        return nil
    }
}
