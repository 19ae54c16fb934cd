#if canImport(Glibc)
    import Glibc
#endif

extension InputError {
    /// Whether the message says a trace's content is another format than the one declared (the scenario decoder
    /// then adds where it was declared).
    var isDeclaredFormatClash: Bool { message.contains(TraceFormat.clashNote) }
}

extension Registered where S == TraceFormats {
    /// The words of a format-clash message that ``InputError/isDeclaredFormatClash`` looks for.
    static var clashNote: String { ", not the declared " }

    /// `error` from reading `path` as the `declared` format, with the reason added when the content is another
    /// format's: "…; the file reads as csv, not the declared mahimahi". Only a regular file is looked at again
    /// (a pipe cannot be read twice). The file and line of `error` stay. Called by ``TraceReader``.
    static func explainingClash(_ error: InputError, path: String, declared: TraceFormat) -> InputError {
        var info = stat()
        guard stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG,
            let detected = try? TraceFormat.detect(path: path), detected != declared
        else { return error }
        var explained = error
        explained.message += "; the file reads as \(detected.rawValue)\(clashNote)\(declared.rawValue)"
        return explained
    }
}
