#if canImport(Glibc)
    import Glibc
#endif

/// Fingerprints of the files a sweep reads, so that a resumed sweep notices an input that changed since it began
/// (its rows would otherwise mix old and new data).
///
/// A regular file's fingerprint is the 64-bit FNV-1a of its bytes, read in 64 KiB blocks; a folder's (Pensieve
/// size files) that of the sorted names and fingerprints of the regular files in it; an HLS master playlist's
/// covers the media playlists it names too. Something that is not a regular file or folder (a pipe) is not read:
/// its fingerprint is `unreadable`, so a sweep over it never resumes silently. Written into the sweep manifest by
/// ``SweepPlan``; compared by ``SweepStore``.
public enum InputFingerprint {
    /// The keys of a scenario whose string value names a file it reads.
    static let fileKeys: Set<String> = ["trace", "pensieveSizes", "hlsMaster", "sabreMovie"]

    /// `fnv1a64:<16 hex digits>` of `path` (see the type), or `unreadable`.
    public static func of(_ path: String) -> String {
        guard let hash = hash(path, depth: 0) else { return "unreadable" }
        return "fnv1a64:" + FNV1a64.hex(hash)
    }

    static func hash(_ path: String, depth: Int) -> UInt64? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        switch info.st_mode & S_IFMT {
        case S_IFREG:
            guard var hash = fileHash(path) else { return nil }
            if depth == 0, path.hasSuffix(".m3u8"), let bytes = try? InputFile.readAll(path, limitBytes: 1 << 24) {
                let folder = InputFile.directory(of: path)
                for line in String(decoding: bytes, as: UTF8.self).split(whereSeparator: \.isNewline) {
                    let uri = line.trimmingCharacters()
                    guard !uri.isEmpty, !uri.hasPrefix("#"), !uri.contains("://") else { continue }
                    hash = combine(hash, Array(uri.utf8), self.hash(InputFile.resolve(uri, against: folder), depth: 1))
                }
            }
            return hash
        case S_IFDIR:
            guard depth == 0 else { return nil }
            var hash = FNV1a64.offsetBasis
            for name in OutputFolder.entries(of: path) where !name.hasPrefix(".") {
                let file = InputFile.resolve(name, against: path)
                var entry = stat()
                guard stat(file, &entry) == 0, (entry.st_mode & S_IFMT) == S_IFREG else { continue }
                hash = combine(hash, Array(name.utf8), fileHash(file))
            }
            return hash
        default:
            return nil
        }
    }

    /// Folds a name and a fingerprint (or its absence) into `hash`.
    static func combine(_ hash: UInt64, _ name: [UInt8], _ value: UInt64?) -> UInt64 {
        var bytes = Array(FNV1a64.hex(hash).utf8) + name + [0]
        bytes += Array((value.map(FNV1a64.hex) ?? "unreadable").utf8)
        return FNV1a64.hash(bytes)
    }

    /// FNV-1a of a regular file's bytes, streamed.
    static func fileHash(_ path: String) -> UInt64? {
        guard let handle = fopen(path, "rb") else { return nil }
        defer { fclose(handle) }
        var hash = FNV1a64()
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let read = buffer.withUnsafeMutableBytes { fread($0.baseAddress!, 1, $0.count, handle) }
            if read == 0 { break }
            hash.add(buffer[0..<read])
        }
        return ferror(handle) == 0 ? hash.value : nil
    }

    /// The files a scenario document names (`trace`, `pensieveSizes`, `hlsMaster`, `sabreMovie` anywhere in it),
    /// resolved against `directory`, in document order.
    static func referencedFiles(_ value: JSONValue, directory: String) -> [String] {
        var files: [String] = []
        func walk(_ value: JSONValue) {
            switch value {
            case .object(let object):
                for key in object.keys {
                    guard let child = object[key] else { continue }
                    if fileKeys.contains(key), case .string(let path) = child {
                        files.append(InputFile.resolve(path, against: directory))
                    } else {
                        walk(child)
                    }
                }
            case .array(let items): items.forEach(walk)
            default: break
            }
        }
        walk(value)
        return files
    }
}

extension Substring {
    /// The text without leading and trailing spaces, tabs and CR.
    func trimmingCharacters() -> String {
        String(
            drop { $0 == " " || $0 == "\t" || $0 == "\r" }.reversed().drop { $0 == " " || $0 == "\t" || $0 == "\r" }
                .reversed())
    }
}
