import Dispatch
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Runs `body` for every index in `0..<count` on up to `jobs` threads and returns the results in index order,
/// so the output never depends on the number of threads. The first error thrown (lowest index) is rethrown
/// after every job has finished. Used by comparisons and sweeps.
public func parallelMap<T: Sendable>(
    count: Int, jobs: Int, _ body: @Sendable (Int) throws -> T
) throws -> [T] {
    if count == 0 { return [] }
    let workers = max(1, min(jobs, count))
    if workers == 1 { return try (0..<count).map(body) }
    let results = Mutex<[Int: Result<T, any Error>]>([:])
    let next = Atomic<Int>(0)
    DispatchQueue.concurrentPerform(iterations: workers) { _ in
        while true {
            let index = next.add(1, ordering: .relaxed).oldValue
            if index >= count { return }
            let result = Result { try body(index) }
            results.withLock { $0[index] = result }
        }
    }
    return try results.withLock { stored in try (0..<count).map { try stored[$0]!.get() } }
}

/// The number of cores this process may use.
public var availableCores: Int {
    #if canImport(Glibc)
        return max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))))
    #else
        return 1
    #endif
}
