import Testing

@testable import ABRSim

/// The line `run` and `compare` print for `optimal`: it says how the optimum treated waiting, and when it is not
/// an upper bound.
@Suite("the optimum's note on how it treated waiting")
struct OptimumNoteTests {
    @Test("for a waiting player the optimum's note is one line saying the plan also chose when to start")
    func aWaitingPlayerIsToldThePlanChoseTheStart() {
        let line = OptimumNote.line("optimal", model: .faithful(waitsToMinimizeStalling: true, otherPlayers: 0))
        #expect(line.hasPrefix("optimal: the player waits to minimize stalling, so the plan also chose when"))
        #expect(!line.contains("not an upper bound"))
        #expect(line.hasSuffix("\n") && line.filter { $0 == "\n" }.count == 1)
    }

    @Test("for a player that does not wait the note says so, after the player's label")
    func aPlayerThatDoesNotWaitIsToldSo() {
        let line = OptimumNote.line(
            "optimal (player b)", model: .faithful(waitsToMinimizeStalling: false, otherPlayers: 0))
        #expect(line.hasPrefix("optimal (player b): the player does not wait"))
    }

    @Test("beside other players the note says the optimum is not an upper bound, with the count")
    func aSharedLinkIsNotAnUpperBound() {
        let one = OptimumNote.line("optimal", model: .faithful(waitsToMinimizeStalling: true, otherPlayers: 1))
        let three = OptimumNote.line("optimal", model: .faithful(waitsToMinimizeStalling: true, otherPlayers: 3))
        #expect(one.contains("beside 1 other player it is not an upper bound"))
        #expect(three.contains("beside 3 other players it is not an upper bound"))
    }

    @Test("in Pensieve's model the note says the model does not wait")
    func pensievesModelDoesNotWait() {
        #expect(OptimumNote.line("optimal", model: .pensieve).hasPrefix("optimal: Pensieve's model does not wait"))
    }
}
