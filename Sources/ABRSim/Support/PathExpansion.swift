#if canImport(Glibc)
    import Glibc
#endif

/// Expands what a user gives as a set of input files: a file, a folder (every regular, non-hidden file in it
/// except README files, sorted by name), or a glob pattern (`traces/norway_*`). The result is sorted and
/// without duplicates so runs over it are deterministic. A pattern that matches nothing, or a missing path,
/// is an ``InputError`` naming it. Used by `compare` (and later `sweep`) for `--traces`.
public enum PathExpansion {
    /// The files `arguments` name, in a stable order.
    public static func files(_ arguments: [String], option: String = "--traces") throws -> [String] {
        var files: [String] = []
        for argument in arguments {
            guard !argument.isEmpty else {
                throw InputError(.option(option), .expected("a path", found: "an empty one"))
            }
            let found: [String]
            if argument.contains(where: { "*?[".contains($0) }) {
                found = try glob(argument, option: option)
            } else if InputFile.isDirectory(argument) {
                found = try directoryFiles(argument)
            } else {
                try InputFile.checkReadable(argument)
                found = [argument]
            }
            if found.isEmpty {
                throw InputError(
                    InputPlace(file: argument, position: .option(option)), .expected("at least one file", found: "none")
                )
            }
            files.append(contentsOf: found)
        }
        var seen = Set<String>()
        return files.filter { seen.insert($0).inserted }
    }

    static func glob(_ pattern: String, option: String) throws -> [String] {
        var result = glob_t()
        defer { globfree(&result) }
        let status = Glibc.glob(pattern, 0, nil, &result)
        if status == GLOB_NOMATCH { return [] }
        guard status == 0 else {
            throw InputError(
                InputPlace(file: pattern, position: .option(option)), .unreadable("cannot expand the pattern"))
        }
        var paths: [String] = []
        for index in 0..<Int(result.gl_pathc) {
            if let path = result.gl_pathv[index], !InputFile.isDirectory(String(cString: path)) {
                paths.append(String(cString: path))
            }
        }
        return paths.sorted()
    }

    static func directoryFiles(_ directory: String) throws -> [String] {
        guard let handle = opendir(directory) else {
            throw InputError(.file(directory), .unreadable("cannot open the folder: \(InputFile.errnoText())"))
        }
        defer { closedir(handle) }
        var names: [String] = []
        while let entry = readdir(handle) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name.hasPrefix(".") || name.uppercased().hasPrefix("README") { continue }
            let path = InputFile.resolve(name, against: directory)
            if !InputFile.isDirectory(path) { names.append(path) }
        }
        return names.sorted()
    }
}
