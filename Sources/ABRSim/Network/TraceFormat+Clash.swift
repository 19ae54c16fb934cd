#if canImport(Glibc)
    import Glibc
#endif

extension InputError {
    /// Whether the problem is a trace's content in another format than the one declared (the scenario decoder
    /// then adds where it was declared).
    var isDeclaredFormatClash: Bool {
        if case .formatClash = problem { return true }
        return false
    }
}

extension Registered where S == TraceFormats {
    /// `error` from reading `path` as the `declared` format, with the reason added when the content is another
    /// format's: "…; the file reads as csv, not the declared mahimahi". Only a regular file is looked at again
    /// (a pipe cannot be read twice). The file and line of `error` stay. Called by ``TraceReader``.
    static func explainingClash(_ error: InputError, path: String, declared: TraceFormat) -> InputError {
        var info = stat()
        guard stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG,
            let detected = try? TraceFormat.detect(path: path), detected != declared
        else { return error }
        var explained = error
        explained.problem = .formatClash(error.problem, detected: detected.rawValue, declared: declared.rawValue)
        return explained
    }
}
