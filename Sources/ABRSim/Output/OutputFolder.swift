#if canImport(Glibc)
    import Glibc
#endif

/// An output folder a command is about to write, checked so that outputs are never silently mixed.
///
/// The rule (``init(_:identity:force:)``), decided before any work is done:
/// - a missing or empty folder, or one whose ``OutputManifest`` has the same command and subject: written;
///   files of the previous output that this one does not write (an old `plots/`, a player's SVG) are removed;
/// - a folder holding another command's or another input's output, a manifest of an unknown or older format, or
///   files without a manifest: an ``InputError`` ("… holds …; use --force or another --out"), unless `force`,
///   which replaces the previous output (removing only the files its manifest lists; unknown files are left).
///
/// Writing (``begin(files:folders:)``, then the files, then ``finish(files:folders:)``, or ``commit(_:folders:)``
/// for a bundle): the manifest is first written with `complete no` and the union of old and new names, the files
/// land (each atomically, see ``OutputBundle``), then the previous output's leftovers are removed and the manifest
/// is rewritten with `complete yes` and exactly the new names. A write that fails (full or read-only disk) puts the
/// previous manifest back, or removes the new one and the folder, so the old output stays whole. Temporaries left
/// by a killed writer (`.NAME.tmp-PID-N`, `.NAME.merge-PID` whose process is gone) are removed by the next writer
/// of the folder and are never taken for output. Used by every command that writes a folder.
///
/// Before all that, the path itself is checked (``OutputPath``), and the folder's sweep lock (`.sweep/lock`, which
/// a running `abrsim sweep` holds exclusively) is taken shared for as long as this value lives: a folder a sweep
/// is writing is refused (exit 2), and a sweep started meanwhile is refused in turn. A sweep's own output folder
/// only checks the lock; its ``SweepStore`` takes it.
public struct OutputFolder: Sendable {
    /// The folder.
    public let path: String
    /// What this output is.
    public let identity: OutputIdentity
    /// The manifest found there when the output's files may be removed, else `nil`.
    let previous: OutputManifest?
    /// The shallowest folder of ``path`` that did not exist when checked: what ``abandon()`` may remove.
    let firstCreated: String?
    /// The shared hold on the sweep locks of the folder and of its parent, while this output is written.
    let lock: SweepLockHold?

    /// Checks `path` for an output of `identity`; throws an ``InputError`` naming the folder when it holds
    /// something else and `force` is off. `option` names the command-line option that chose the folder.
    public init(_ path: String, identity: OutputIdentity, force: Bool, option: String = "--out") throws {
        try OutputPath.check(path, option: option)
        self.path = path
        self.identity = identity
        firstCreated = OutputPath.firstMissingFolder(path)
        lock = try SweepLockHold(folder: path, keepsHolding: identity.command != "sweep")
        let advice = "; use --force to replace it, or another \(option)"
        switch OutputManifest.read(directory: path) {
        case .valid(let manifest):
            guard force || manifest.identity.matches(identity) else {
                throw InputError(.file(path), .invalid("holds the output of \(manifest.identity.description)" + advice))
            }
            previous = manifest
        case .unreadable(let firstLine):
            guard force else {
                throw InputError(
                    .file(path),
                    .invalid(
                        "holds output in an unknown or older format ('\(OutputManifest.fileName)' starts '\(firstLine)')"
                            + advice))
            }
            previous = nil
        case .missing:
            let foreign = Self.entries(of: path).filter { !Self.isTemporary($0) }
            if let example = foreign.first, !force {
                throw InputError(
                    .file(path),
                    .invalid(
                        "holds files that are not the output of this version of abrsim (e.g. '\(example)')" + advice))
            }
            previous = nil
        }
    }

    /// Creates the folder, removes dead temporaries, and records an unfinished output that owns `files` and
    /// `folders` as well as what the previous output owned. On failure, undoes itself (``abandon()``).
    public func begin(files: [String], folders: [String] = []) throws {
        do {
            try AtomicFileWriter.createDirectory(path)
            Self.removeDeadTemporaries(in: path)
            for folder in folders { Self.removeDeadTemporaries(in: InputFile.resolve(folder, against: path)) }
            try writeManifest(
                OutputManifest(
                    identity: identity, isComplete: false, files: Self.union(previous?.files ?? [], files),
                    folders: Self.union(previous?.folders ?? [], folders)))
        } catch {
            abandon()
            throw error
        }
    }

    /// Removes what the previous output owned and this one does not (an old `plots/`, a player's SVG), then records
    /// the output as complete, owning exactly `files` and `folders`.
    public func finish(files: [String], folders: [String] = []) throws {
        for file in previous?.files ?? [] where !files.contains(file) {
            unlink(InputFile.resolve(file, against: path))
        }
        for folder in previous?.folders ?? [] where !folders.contains(folder) {
            Self.removeOwnedFolder(InputFile.resolve(folder, against: path))
        }
        try writeManifest(OutputManifest(identity: identity, isComplete: true, files: files, folders: folders))
    }

    /// After a failed write: puts the previous manifest back (its files are untouched), or, when there was none,
    /// removes this one and the folder if it is empty. Best effort.
    public func abandon() {
        let manifestPath = InputFile.resolve(OutputManifest.fileName, against: path)
        if let previous {
            try? AtomicFileWriter.write(Array(previous.text.utf8), to: manifestPath)
        } else {
            unlink(manifestPath)
            rmdir(path)
            // Folders created on the way (`results/` for `results/x`) go too, when empty.
            if let firstCreated {
                var folder = InputFile.directory(of: path)
                while folder.count >= firstCreated.count, folder != ".", folder != "/" {
                    guard rmdir(folder) == 0 else { break }
                    folder = InputFile.directory(of: folder)
                }
            }
        }
    }

    /// ``begin(files:folders:)``, the bundle's files (all or none, see ``OutputBundle/commit(to:)``), then
    /// ``finish(files:folders:)``; a bundle that cannot be written is ``abandon()``ed.
    public func commit(_ bundle: OutputBundle, folders: [String] = []) throws {
        try begin(files: bundle.names, folders: folders)
        do {
            try bundle.commit(to: path)
        } catch {
            abandon()
            throw error
        }
        try finish(files: bundle.names, folders: folders)
    }

    private func writeManifest(_ manifest: OutputManifest) throws {
        try AtomicFileWriter.write(
            Array(manifest.text.utf8), to: InputFile.resolve(OutputManifest.fileName, against: path))
    }

    /// `a` followed by the names of `b` it lacks.
    static func union(_ a: [String], _ b: [String]) -> [String] {
        a + b.filter { !a.contains($0) }
    }

    /// Removes a subfolder an older output owned: the files its own manifest lists (a state folder without one,
    /// such as `.sweep`, entirely, since only abrsim writes there), then the folder if nothing else is left.
    static func removeOwnedFolder(_ folder: String) {
        guard InputFile.isDirectory(folder) else { return }
        switch OutputManifest.read(directory: folder) {
        case .valid(let manifest):
            for file in manifest.files { unlink(InputFile.resolve(file, against: folder)) }
            for sub in manifest.folders { removeOwnedFolder(InputFile.resolve(sub, against: folder)) }
            unlink(InputFile.resolve(OutputManifest.fileName, against: folder))
        case .missing where InputFile.fileName(of: folder).hasPrefix("."):
            for name in entries(of: folder) { unlink(InputFile.resolve(name, against: folder)) }
        default:
            return
        }
        removeDeadTemporaries(in: folder)
        rmdir(folder)
    }

    /// Removes the temporaries (see ``writer(ofTemporary:)``) of writers that no longer run.
    static func removeDeadTemporaries(in folder: String) {
        for name in entries(of: folder) {
            guard let pid = writer(ofTemporary: name), kill(pid, 0) != 0, errno == ESRCH else { continue }
            unlink(InputFile.resolve(name, against: folder))
        }
    }

    /// Whether `name` is a temporary of ``AtomicFileWriter`` or of a sweep merge (of any process).
    static func isTemporary(_ name: String) -> Bool { writer(ofTemporary: name) != nil }

    /// The process id in a temporary's name: `.NAME.tmp-PID-N` or `.NAME.merge-PID`; `nil` for other names.
    static func writer(ofTemporary name: String) -> pid_t? {
        guard name.hasPrefix("."), let dot = name.lastIndex(of: "."), dot != name.startIndex else { return nil }
        let parts = name[name.index(after: dot)...].split(separator: "-", omittingEmptySubsequences: false)
        if parts.count == 3, parts[0] == "tmp", let pid = Int32(parts[1]), pid > 0, Int(parts[2]) != nil { return pid }
        if parts.count == 2, parts[0] == "merge", let pid = Int32(parts[1]), pid > 0 { return pid }
        return nil
    }

    /// The names in `folder` (without `.`, `..` and the manifest); empty when it cannot be read.
    static func entries(of folder: String) -> [String] {
        guard let handle = opendir(folder) else { return [] }
        defer { closedir(handle) }
        var names: [String] = []
        while let entry = readdir(handle) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) {
                String(cString: $0.bindMemory(to: CChar.self).baseAddress!)
            }
            if name != "." && name != ".." && name != OutputManifest.fileName { names.append(name) }
        }
        return names.sorted()
    }
}
