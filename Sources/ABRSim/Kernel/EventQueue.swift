/// A priority queue of simulation events ordered by time, then by sequence number.
///
/// A binary min-heap over `(time, sequence)`. The ``Kernel`` numbers events in the order they are scheduled, so
/// ties at the same instant come out first-in first-out, which makes every run deterministic. The payload is
/// generic so entries are plain values (no boxing, no allocation per event once the heap's storage has grown).
///
/// - Complexity: `insert` and `popNext` are O(log n); `nextTime` is O(1).
public struct EventQueue<Payload> {
    /// One scheduled event.
    public struct Entry {
        /// Simulated time in seconds at which the event happens.
        public var time: Double
        /// Scheduling order, breaking ties between equal times.
        public var sequence: UInt64
        /// What happens.
        public var payload: Payload

        /// An entry at `time` (seconds) with its sequence number.
        public init(time: Double, sequence: UInt64, payload: Payload) {
            self.time = time
            self.sequence = sequence
            self.payload = payload
        }
    }

    var heap: [Entry] = []

    /// An empty queue.
    public init() {}

    /// The number of pending events.
    public var count: Int { heap.count }

    /// Whether no event is pending.
    public var isEmpty: Bool { heap.isEmpty }

    /// The time of the earliest pending event, or `.infinity` when there is none.
    public var nextTime: Double { heap.first?.time ?? .infinity }

    /// Adds `entry` at exactly its time and sequence number.
    public mutating func insert(_ entry: Entry) {
        heap.append(entry)
        siftUp(heap.count - 1)
    }

    /// Removes and returns the earliest event (first scheduled among equal times), or `nil` when empty.
    public mutating func popNext() -> Entry? {
        guard !heap.isEmpty else { return nil }
        if heap.count == 1 { return heap.removeLast() }
        let first = heap[0]
        heap[0] = heap.removeLast()
        siftDown(0)
        return first
    }

    /// Removes every pending event.
    public mutating func removeAll() {
        heap.removeAll(keepingCapacity: true)
    }

    static func precedes(_ a: Entry, _ b: Entry) -> Bool {
        a.time < b.time || (a.time == b.time && a.sequence < b.sequence)
    }

    mutating func siftUp(_ index: Int) {
        precondition(index >= 0 && index < heap.count, "sift from outside the heap")
        heap.withUnsafeMutableBufferPointer { UnsafeHeapHandle(entries: $0).siftUp(index) }
    }

    mutating func siftDown(_ index: Int) {
        precondition(index >= 0 && index < heap.count, "sift from outside the heap")
        heap.withUnsafeMutableBufferPointer { UnsafeHeapHandle(entries: $0).siftDown(index) }
    }

    /// The heap's storage for the two sift loops, read and written without bounds checks: the event loop's
    /// hottest code. Safe because every index it touches is derived in the loop from one checked on entry
    /// (``siftUp(_:)``, ``siftDown(_:)``): a parent (i − 1) / 2 of an index > 0, or a child 2i + 1 (+ 1) compared
    /// with the count first. Debug builds still check each access (`assert`). Lives only inside
    /// `withUnsafeMutableBufferPointer`, as swift-collections' unsafe handles do.
    struct UnsafeHeapHandle {
        let entries: UnsafeMutableBufferPointer<Entry>

        subscript(index: Int) -> Entry {
            get {
                assert(index >= 0 && index < entries.count)
                return entries.baseAddress.unsafelyUnwrapped[index]
            }
            nonmutating set {
                assert(index >= 0 && index < entries.count)
                entries.baseAddress.unsafelyUnwrapped[index] = newValue
            }
        }

        func siftUp(_ index: Int) {
            var child = index
            let entry = self[child]
            while child > 0 {
                let parent = (child - 1) >> 1
                if !EventQueue.precedes(entry, self[parent]) { break }
                self[child] = self[parent]
                child = parent
            }
            self[child] = entry
        }

        func siftDown(_ index: Int) {
            var parent = index
            let count = entries.count
            let entry = self[parent]
            while true {
                let left = 2 &* parent &+ 1
                if left >= count { break }
                let right = left &+ 1
                var smallest = left
                if right < count && EventQueue.precedes(self[right], self[left]) { smallest = right }
                if !EventQueue.precedes(self[smallest], entry) { break }
                self[parent] = self[smallest]
                parent = smallest
            }
            self[parent] = entry
        }
    }
}
