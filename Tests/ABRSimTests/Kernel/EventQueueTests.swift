import Testing

@testable import ABRSim

@Suite("the event queue")
struct EventQueueTests {
    /// Pops everything left, as (time, payload) pairs.
    static func drain(_ queue: inout EventQueue<Int>) -> [(Double, Int)] {
        var order: [(Double, Int)] = []
        while let entry = queue.popNext() { order.append((entry.time, entry.payload)) }
        return order
    }

    @Test("events come out by time, then by sequence number")
    func eventsComeOutByTimeThenBySequence() {
        let random = RandomSource(seed: 5)
        var queue = EventQueue<Int>()
        var expected: [(time: Double, payload: Int)] = []
        var popped: [(Double, Int)] = []
        for payload in 0..<2000 {
            // Few distinct times, so that many events tie; pops interleaved with pushes, as in a simulation.
            let time = Double(random.integer(below: 50))
            queue.insert(EventQueue.Entry(time: time, sequence: UInt64(payload), payload: payload))
            expected.append((time, payload))
            if random.uniform() < 0.3, let entry = queue.popNext() { popped.append((entry.time, entry.payload)) }
        }
        popped += Self.drain(&queue)
        // Each pop is the earliest (time, then schedule order) of the events pending at that moment: check the
        // popped events against a reference that simulates exactly that with a sorted list.
        var pending: [(time: Double, payload: Int)] = []
        var reference: [(Double, Int)] = []
        let rerun = RandomSource(seed: 5)
        for payload in 0..<2000 {
            pending.append((Double(rerun.integer(below: 50)), payload))
            if rerun.uniform() < 0.3, !pending.isEmpty {
                let first = pending.indices.min {
                    (pending[$0].time, pending[$0].payload) < (pending[$1].time, pending[$1].payload)
                }!
                reference.append((pending[first].time, pending[first].payload))
                pending.remove(at: first)
            }
        }
        reference += pending.sorted { ($0.time, $0.payload) < ($1.time, $1.payload) }.map { ($0.time, $0.payload) }
        #expect(popped.count == 2000)
        #expect(popped.map(\.0) == reference.map(\.0))
        #expect(popped.map(\.1) == reference.map(\.1))
    }
}
