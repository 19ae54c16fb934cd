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
    _ = allocatorTunedForThreads
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

/// The most threads a command's `--jobs` may ask for (each holds one run's state; more than the cores only waits).
public let maximumJobs = 1024

/// The number of cores this process may use.
public var availableCores: Int {
    #if canImport(Glibc)
        return max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))))
    #else
        return 1
    #endif
}

/// Set once, before the first parallel map: glibc's allocator keeps freed memory instead of trimming its
/// per-thread heaps after every run. Trimming unmaps pages, and every unmap interrupts the other cores to flush
/// their TLBs; with two threads that cost about 10 % of the CPU time of a sweep. The process keeps up to 64 MB
/// per heap it has already used, no more.
private let allocatorTunedForThreads: Void = {
    #if canImport(Glibc)
        // glibc's `mallopt` parameters (malloc.h): M_TRIM_THRESHOLD −1, M_TOP_PAD −2, M_MMAP_THRESHOLD −3.
        _ = glibcMallopt(-1, 64 << 20)
        _ = glibcMallopt(-2, 16 << 20)
        _ = glibcMallopt(-3, 32 << 20)
    #endif
}()

#if canImport(Glibc)
    /// glibc's `int mallopt(int param, int value)`, which the Glibc module does not export (malloc.h).
    @_silgen_name("mallopt")
    private func glibcMallopt(_ parameter: Int32, _ value: Int32) -> Int32
#endif
