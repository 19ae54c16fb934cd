#if canImport(Glibc)
    import Glibc
#endif

/// What an output folder holds: the command that wrote it and the input it was written from.
///
/// Two outputs are "the same" (a rerun may replace the older one) when ``command`` and ``subject`` are equal; the
/// ``fingerprint`` of the input is recorded for provenance only, so editing a scenario and running it again
/// replaces its results. Made by the commands in `Sources/abrsim/` and kept in ``OutputManifest``.
public struct OutputIdentity: Equatable, Sendable {
    /// What wrote the folder: `run`, `compare`, `tune`, `sweep`, or `plots` (the plots of a results folder, drawn by
    /// `abrsim run`, `compare` or `plot`).
    public var command: String
    /// The input, as an absolute path: the scenario file, the content of a comparison, the results folder plotted.
    public var subject: String
    /// `fnv1a64:<16 hex digits>` of the subject's bytes when it is a readable file, else `-`.
    public var fingerprint: String

    /// The identity of `command`'s output for `subject` (a path, made absolute; a file is fingerprinted).
    public init(command: String, subject: String) {
        self.command = command
        self.subject = absolutePath(subject)
        if !InputFile.isDirectory(subject), let bytes = try? InputFile.readAll(subject) {
            fingerprint = "fnv1a64:" + FNV1a64.hex(FNV1a64.hash(bytes))
        } else {
            fingerprint = "-"
        }
    }

    /// An identity as recorded (read back from a manifest, or copied from another folder's, as `merge` does).
    public init(command: String, subject: String, fingerprint: String) {
        self.command = command
        self.subject = subject
        self.fingerprint = fingerprint
    }

    /// Whether a folder written as `other` may be replaced by this output (same command and subject).
    public func matches(_ other: OutputIdentity) -> Bool {
        command == other.command && subject == other.subject
    }

    /// `abrsim run` of `/path/scenario.json`, for messages.
    public var description: String {
        command == "plots" ? "the plots of \(subject)" : "'abrsim \(command)' of \(subject)"
    }
}

/// The `.abrsim-output` file in every output folder a command writes: format version, identity, whether the
/// write finished, and the files and subfolders the output owns (what a later run may remove).
///
/// Text, one `key value` line each, e.g.
/// ```
/// abrsim-output 1
/// command run
/// subject /home/me/scenarios/tunnel.json
/// fingerprint fnv1a64:9f0c3a1b2c4d5e6f
/// complete yes
/// file summary.csv
/// folder plots
/// ```
/// Written and read by ``OutputFolder``.
public struct OutputManifest: Equatable, Sendable {
    /// The manifest's file name in the output folder.
    public static let fileName = ".abrsim-output"
    /// The format this version writes; a folder with another is refused (without `--force`).
    public static let formatVersion = 1
    /// Who wrote the folder, from what.
    public var identity: OutputIdentity
    /// Whether every file had landed when it was written (`false` while writing or after a crash).
    public var isComplete: Bool
    /// Plain file names the output owns.
    public var files: [String]
    /// Subfolders the output owns (each with its own manifest, or a hidden state folder such as `.sweep`).
    public var folders: [String]

    /// A manifest.
    public init(identity: OutputIdentity, isComplete: Bool, files: [String], folders: [String]) {
        self.identity = identity
        self.isComplete = isComplete
        self.files = files
        self.folders = folders
    }

    /// The file's text.
    public var text: String {
        var text = "abrsim-output \(Self.formatVersion)\ncommand \(identity.command)\nsubject \(identity.subject)\n"
        text += "fingerprint \(identity.fingerprint)\ncomplete \(isComplete ? "yes" : "no")\n"
        for file in files { text += "file \(file)\n" }
        for folder in folders { text += "folder \(folder)\n" }
        return text
    }

    /// What a folder's manifest says.
    public enum Reading: Equatable, Sendable {
        /// The folder has no manifest.
        case missing
        /// A manifest of this format.
        case valid(OutputManifest)
        /// A manifest this version cannot read (another format version, or damaged); the first line, for messages.
        case unreadable(String)
    }

    /// Reads the manifest of `directory`.
    public static func read(directory: String) -> Reading {
        guard let bytes = try? InputFile.readAll(InputFile.resolve(fileName, against: directory)) else {
            return .missing
        }
        let text = String(decoding: bytes, as: UTF8.self)
        return parse(text).map(Reading.valid) ?? .unreadable(String(text.prefix { $0 != "\n" }.prefix(60)))
    }

    /// A manifest's text parsed, or `nil` when it is not this format.
    static func parse(_ text: String) -> OutputManifest? {
        var values: [String: String] = [:]
        var files: [String] = []
        var folders: [String] = []
        for line in text.split(separator: "\n") {
            guard let space = line.firstIndex(of: " ") else { return nil }
            let key = String(line[..<space])
            let value = String(line[line.index(after: space)...])
            switch key {
            case "file": files.append(value)
            case "folder": folders.append(value)
            default: values[key] = value
            }
        }
        guard values["abrsim-output"] == String(formatVersion), let command = values["command"],
            let subject = values["subject"], let fingerprint = values["fingerprint"],
            let complete = values["complete"], complete == "yes" || complete == "no",
            (files + folders).allSatisfy(isPlainName)
        else { return nil }
        return OutputManifest(
            identity: OutputIdentity(command: command, subject: subject, fingerprint: fingerprint),
            isComplete: complete == "yes", files: files, folders: folders)
    }

    /// A name without `/` that is not `.` or `..` (so a manifest can only ever name entries of its own folder).
    static func isPlainName(_ name: String) -> Bool {
        !name.isEmpty && name != "." && name != ".." && !name.contains("/")
    }
}

/// `path` made absolute (against the working directory) and normalised lexically: no `.`, `..` or repeated `/`.
public func absolutePath(_ path: String) -> String {
    var full = path
    if !path.hasPrefix("/") {
        var buffer = [CChar](repeating: 0, count: 4096)
        let directory =
            getcwd(&buffer, buffer.count).map { _ in
                String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            } ?? "."
        full = directory + "/" + path
    }
    var parts: [Substring] = []
    for part in full.split(separator: "/") where part != "." {
        if part == ".." {
            if !parts.isEmpty { parts.removeLast() }
        } else {
            parts.append(part)
        }
    }
    return "/" + parts.joined(separator: "/")
}
