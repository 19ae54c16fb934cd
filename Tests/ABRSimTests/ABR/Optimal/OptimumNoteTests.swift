import Testing

@testable import ABRSim

/// The line `run` and `compare` print for `optimal`: it says how the optimum treated waiting, and when it is not
/// an upper bound.
struct OptimumNoteTests {
    @Test func aWaitingPlayerIsToldThePlanChoseTheStart() {
        let line = OptimumNote.line("optimal", model: .faithful(waitsToMinimizeStalling: true, otherPlayers: 0))
        #expect(line.hasPrefix("optimal: the player waits to minimize stalling, so the plan also chose when"))
        #expect(!line.contains("not an upper bound"))
        #expect(line.hasSuffix("\n") && line.filter { $0 == "\n" }.count == 1)
    }

    @Test func aPlayerThatDoesNotWaitIsToldSo() {
        let line = OptimumNote.line(
            "optimal (player b)", model: .faithful(waitsToMinimizeStalling: false, otherPlayers: 0))
        #expect(line.hasPrefix("optimal (player b): the player does not wait"))
    }

    @Test func aSharedLinkIsNotAnUpperBound() {
        let one = OptimumNote.line("optimal", model: .faithful(waitsToMinimizeStalling: true, otherPlayers: 1))
        let three = OptimumNote.line("optimal", model: .faithful(waitsToMinimizeStalling: true, otherPlayers: 3))
        #expect(one.contains("beside 1 other player it is not an upper bound"))
        #expect(three.contains("beside 3 other players it is not an upper bound"))
    }

    @Test func pensievesModelDoesNotWait() {
        #expect(OptimumNote.line("optimal", model: .pensieve).hasPrefix("optimal: Pensieve's model does not wait"))
    }
}
