#if canImport(Glibc)
    import Glibc
#endif

/// A shared hold on the sweep lock (`DIR/.sweep/lock`, see ``SweepStore``) of an output folder and of its parent
/// (a `plots` folder inside a sweep's folder), so that no writer replaces files a running sweep is writing.
///
/// A running sweep holds its lock exclusively (`flock`); a shared request then fails at once and the writer is
/// refused with an ``InputError`` (exit 2). While this value lives the shared hold stays, so a sweep started
/// meanwhile is refused too. A folder without a lock file has no sweep; nothing is created. Made by
/// ``OutputFolder``.
public final class SweepLockHold: Sendable {
    private let descriptors: [Int32]

    /// Checks the locks of `folder` and its parent; keeps holding them when `keepsHolding` (a sweep's own output
    /// only checks, since its store then takes the lock exclusively).
    public init(folder: String, keepsHolding: Bool) throws {
        var held: [Int32] = []
        for candidate in [folder, InputFile.directory(of: folder)] {
            let lockPath = InputFile.resolve(SweepStore.stateFolder + "/lock", against: candidate)
            let descriptor = open(lockPath, O_RDONLY | O_CLOEXEC)
            guard descriptor >= 0 else { continue }
            guard SweepStore.lockBriefly(descriptor, LOCK_SH) else {
                close(descriptor)
                for other in held { close(other) }
                throw InputError(
                    .file(candidate),
                    .invalid("another abrsim sweep is writing this folder; wait for it to end, or use another --out"))
            }
            if keepsHolding {
                held.append(descriptor)
            } else {
                close(descriptor)
            }
        }
        descriptors = held
    }

    deinit { for descriptor in descriptors { close(descriptor) } }
}
