/// The discrete-event core of a run: the clock, the queue of pending events, cancellable timers and the loop
/// that delivers them in order. It knows nothing of what the events mean.
///
/// Model parts schedule their own events (``schedule(at:_:)``) and keep the ``TimerHandle`` to cancel or move
/// them; ``run(until:_:)`` takes events in order of time, then of scheduling (ties come out first-in first-out),
/// sets ``now`` and hands each to the model's dispatch function. A cancelled event stays queued and is skipped
/// when it comes due; the clock still moves to its time, as a discrete-event clock moves to every scheduled
/// instant. A timer moved later keeps its one queue entry until that entry comes due, then is queued again at its
/// new time under the sequence number it was given when it was moved, so it sorts exactly as an event scheduled
/// at that moment. Times are simulated seconds. One kernel per run, used from one thread; the simulation builds
/// it and its model parts share it.
public final class Kernel<Event> {
    /// One scheduled event: what happens, and where its queue entries stand.
    struct Slot {
        /// The sequence the event was first scheduled under (its handle's serial).
        var serial: UInt64
        /// The time and sequence of the queue entry that stands for the event now; other entries naming the slot
        /// are stale.
        var queuedTime: Double
        var queuedSequence: UInt64
        /// When and under which sequence the event is due (later than its queue entry once it has been moved).
        var dueTime: Double
        var dueSequence: UInt64
        /// What happens; `nil` once the event is cancelled or has happened.
        var event: Event?
    }

    /// Pending entries, each naming its slot. Accessed at every event by the loop and by the model parts it
    /// calls; each access is a single insert or pop that calls nothing outside the queue, so the run-time
    /// exclusivity check is dropped (one kernel per run, on one thread).
    @exclusivity(unchecked) var queue = EventQueue<Int32>()
    @exclusivity(unchecked) var slots: [Slot] = []
    @exclusivity(unchecked) var freeSlots: [Int32] = []
    @exclusivity(unchecked) var nextSequence: UInt64 = 0
    /// The current simulated time (seconds).
    @exclusivity(unchecked) public private(set) var now = 0.0
    /// Queue entries taken so far by ``run(until:_:)`` (cancelled and moved ones included), for benchmarks.
    @exclusivity(unchecked) public private(set) var processedCount = 0
    /// Set by ``stop()``: the loop returns after the event being handled.
    @exclusivity(unchecked) var isStopped = false

    /// A kernel at time 0 with nothing scheduled.
    public init() {}

    /// The number of queue entries pending (stale ones included).
    public var pendingCount: Int { queue.count }

    /// Schedules `event` at `time` (seconds; an earlier time means now) and returns its handle.
    @discardableResult
    public func schedule(at time: Double, _ event: Event) -> TimerHandle {
        let time = Swift.max(time, now)
        let sequence = takeSequence()
        let slot: Int32
        let entry = Slot(
            serial: sequence, queuedTime: time, queuedSequence: sequence, dueTime: time, dueSequence: sequence,
            event: event)
        if let free = freeSlots.popLast() {
            slot = free
            slots[Int(free)] = entry
        } else {
            slot = Int32(slots.count)
            slots.append(entry)
        }
        queue.insert(EventQueue.Entry(time: time, sequence: sequence, payload: slot))
        return TimerHandle(slot: slot, serial: sequence)
    }

    /// Cancels the event of `handle` if it is still pending.
    public func cancel(_ handle: TimerHandle) {
        guard isPending(handle) else { return }
        slots[Int(handle.slot)].event = nil
    }

    /// Cancels the event of `handle`, if any, and clears it.
    public func cancel(_ handle: inout TimerHandle?) {
        if let pending = handle { cancel(pending) }
        handle = nil
    }

    /// Moves the pending event of `handle` to `time` (seconds; an earlier time means now): it then sorts as if it
    /// had been scheduled now. Returns `false` (and does nothing) when the event is no longer pending.
    @discardableResult
    public func move(_ handle: TimerHandle, to time: Double) -> Bool {
        guard isPending(handle) else { return false }
        let index = Int(handle.slot)
        let time = Swift.max(time, now)
        let sequence = takeSequence()
        slots[index].dueTime = time
        slots[index].dueSequence = sequence
        // A queue entry no later than the new time hands over when it comes due; an earlier time needs its own.
        if time < slots[index].queuedTime {
            slots[index].queuedTime = time
            slots[index].queuedSequence = sequence
            queue.insert(EventQueue.Entry(time: time, sequence: sequence, payload: handle.slot))
        }
        return true
    }

    /// Whether the event of `handle` is still to happen (neither happened nor cancelled).
    public func isPending(_ handle: TimerHandle) -> Bool {
        let index = Int(handle.slot)
        guard index < slots.count else { return false }
        let slot = slots[index]
        return slot.serial == handle.serial && slot.event != nil
    }

    /// The time the event of `handle` is due (`nil` when it is no longer pending).
    public func dueTime(of handle: TimerHandle) -> Double? {
        isPending(handle) ? slots[Int(handle.slot)].dueTime : nil
    }

    /// Makes ``run(until:_:)`` return once the event being handled is done.
    public func stop() { isStopped = true }

    /// Delivers events in order to `dispatch` until ``stop()`` is called, nothing is pending, or the next event
    /// falls after `limit` (seconds; the clock then stops at `limit`).
    public func run(until limit: Double = .infinity, _ dispatch: (Event) -> Void) {
        while !isStopped, let entry = queue.popNext() {
            if entry.time > limit {
                now = limit
                break
            }
            now = entry.time
            processedCount += 1
            let index = Int(entry.payload)
            // A stale entry: the event was moved earlier and has a newer entry.
            guard slots[index].queuedSequence == entry.sequence else { continue }
            // Cancelled: free the slot.
            guard let event = slots[index].event else {
                freeSlots.append(entry.payload)
                continue
            }
            let dueSequence = slots[index].dueSequence
            if dueSequence != entry.sequence {
                // Moved later: queue it at its due time.
                let dueTime = slots[index].dueTime
                slots[index].queuedTime = dueTime
                slots[index].queuedSequence = dueSequence
                queue.insert(EventQueue.Entry(time: dueTime, sequence: dueSequence, payload: entry.payload))
                continue
            }
            slots[index].event = nil
            freeSlots.append(entry.payload)
            dispatch(event)
        }
    }

    private func takeSequence() -> UInt64 {
        defer { nextSequence &+= 1 }
        return nextSequence
    }

}
