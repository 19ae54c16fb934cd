import Testing

@testable import ABRSim

@Suite("the player's parts")
struct PlayerPartsTests {
    @Test("the playhead moves at its rate until the buffer's end, and a freeze holds it there")
    func playheadMovesAndFreezes() {
        var playhead = Playhead(rate: 2)
        playhead.bufferedEnd = 10
        playhead.isAdvancing = true
        playhead.since = 1
        // 2 media seconds per second from 0 at t = 1: 6 at t = 4, capped at the buffer's end 10 from t = 6.
        #expect(playhead.position(at: 4) == 6)
        #expect(playhead.bufferLevel(at: 4) == 4)
        #expect(playhead.position(at: 9) == 10)
        #expect(playhead.bufferLevel(at: 9) == 0 && !playhead.hasMedia(at: 9))
        let wasMoving = playhead.freeze(at: 4)
        #expect(wasMoving)
        playhead.isAdvancing = false
        #expect(playhead.position(at: 100) == 6)
        #expect(playhead.playedSeconds == 6)
        // Frozen at 6 with 10 buffered: at rate 2 it runs dry 2 s after it starts again.
        #expect(playhead.runOutTime(from: 20) == 22)
        let movedWhileFrozen = playhead.freeze(at: 30)
        #expect(!movedWhileFrozen)
    }

    @Test("a seek counts the media jumped over and keeps the played time")
    func seeksCountSkippedMedia() {
        var playhead = Playhead(rate: 1)
        playhead.mediaTime = 5
        let forward = playhead.jump(to: 12)
        #expect(forward == 7)
        playhead.mediaTime = 15  // played 3 s after the seek
        #expect(playhead.playedSeconds == 8)
        let back = playhead.jump(to: 2)
        #expect(back == -13)
        #expect(playhead.playedSeconds == 8)
    }

    @Test("a stall's wait is accounted when it ends, and startup from the play request")
    func waitsAreAccounted() {
        var machine = PlaybackStateMachine()
        var totals = PlayerTotals()
        machine.playRequestTime = 1
        machine.beginWait(.startup, at: 1, hasSamples: false, totals: &totals)
        #expect(machine.waitingReason == .evaluatingBufferingRate)
        machine.beginPlaying(at: 3.5, totals: &totals)
        #expect(totals.startupSeconds == 2.5 && machine.state == .playing && !machine.isWaiting)
        machine.beginWait(.stall, at: 10, hasSamples: true, totals: &totals)
        #expect(machine.waitingReason == .toMinimizeStalls && totals.stallCount == 1)
        #expect(machine.stallSeconds(at: 12, totals: totals) == 2)
        machine.endWait(at: 14, totals: &totals)
        #expect(totals.stallSeconds == 4 && totals.longestStallSeconds == 4)
        #expect(totals.stalls.map(\.end) == [14])
        // Ending again accounts nothing more.
        machine.endWait(at: 20, totals: &totals)
        #expect(totals.stallSeconds == 4)
    }
}
