import Testing

@testable import ABRSim

@Suite("the kernel")
struct KernelTests {
    /// Runs `kernel` to the end, returning (time, event) for each event delivered.
    static func delivered(_ kernel: Kernel<String>, until limit: Double = .infinity) -> [(Double, String)] {
        var order: [(Double, String)] = []
        kernel.run(until: limit) { order.append((kernel.now, $0)) }
        return order
    }

    @Test("events at one instant come out in the order they were scheduled")
    func tiesAreFirstInFirstOut() {
        let kernel = Kernel<String>()
        kernel.schedule(at: 2, "b")
        kernel.schedule(at: 1, "a")
        kernel.schedule(at: 2, "c")
        let order = Self.delivered(kernel)
        #expect(order.map(\.1) == ["a", "b", "c"])
        #expect(order.map(\.0) == [1, 2, 2])
    }

    @Test("a cancelled event is never delivered, but the clock still reaches its time")
    func cancelledEventsAreSkipped() {
        let kernel = Kernel<String>()
        kernel.schedule(at: 1, "a")
        let late = kernel.schedule(at: 5, "late")
        kernel.cancel(late)
        #expect(!kernel.isPending(late))
        #expect(Self.delivered(kernel).map(\.1) == ["a"])
        #expect(kernel.now == 5)
        #expect(kernel.processedCount == 2)
    }

    @Test("cancelling an event that has happened does nothing to the event that reuses its slot")
    func staleHandlesAreHarmless() {
        let kernel = Kernel<String>()
        let first = kernel.schedule(at: 1, "first")
        var order: [String] = []
        var second: TimerHandle?
        kernel.run { event in
            order.append(event)
            if event == "first" {
                second = kernel.schedule(at: 2, "second")  // reuses the slot "first" had
                kernel.cancel(first)
            }
        }
        #expect(order == ["first", "second"])
        #expect(second.map { kernel.isPending($0) } == false)
    }

    @Test("a moved event sorts as if scheduled when it was moved, later or earlier")
    func movedEventsSortAsScheduledAtTheMove() {
        let kernel = Kernel<String>()
        let moving = kernel.schedule(at: 1, "moved")
        kernel.schedule(at: 5, "before")
        #expect(kernel.move(moving, to: 5))  // moved after "before" was scheduled: comes after it
        kernel.schedule(at: 5, "after")
        #expect(kernel.dueTime(of: moving) == 5)
        #expect(Self.delivered(kernel).map(\.1) == ["before", "moved", "after"])

        let again = Kernel<String>()
        let early = again.schedule(at: 9, "early")
        again.schedule(at: 3, "three")
        #expect(again.move(early, to: 2))
        #expect(Self.delivered(again).map { "\($0.0) \($0.1)" } == ["2.0 early", "3.0 three"])
    }

    @Test("an event scheduled in the past happens now")
    func pastTimesMeanNow() {
        let kernel = Kernel<String>()
        kernel.schedule(at: 4, "a")
        var times: [Double] = []
        kernel.run { event in
            times.append(kernel.now)
            if event == "a" { kernel.schedule(at: 1, "b") }
        }
        #expect(times == [4, 4])
    }

    @Test("the run stops at its limit, with the clock at the limit, and when stopped")
    func limitsAndStop() {
        let kernel = Kernel<String>()
        kernel.schedule(at: 1, "a")
        kernel.schedule(at: 10, "b")
        #expect(Self.delivered(kernel, until: 5).map(\.1) == ["a"])
        #expect(kernel.now == 5)

        let stopping = Kernel<String>()
        stopping.schedule(at: 1, "stop")
        stopping.schedule(at: 2, "never")
        var order: [String] = []
        stopping.run { event in
            order.append(event)
            stopping.stop()
        }
        #expect(order == ["stop"])
    }
}
