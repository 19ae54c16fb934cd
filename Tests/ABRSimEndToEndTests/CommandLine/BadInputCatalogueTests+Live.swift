import ABRSimTestSupport
import Foundation
import Testing

@testable import ABRSim

/// Bad live inputs (issue 16): an availability start after the content, hold-backs shorter than a part target
/// (in the scenario and in a live HLS playlist), a target latency below one chunk, live keys on video on demand,
/// an unknown catch-up controller, a DVR window shorter than the hold-back, a CMAF chunk duration that does not
/// divide the segments, is below one millisecond or comes with LL-HLS parts, a negative playlist size, and a live HLS
/// playlist (with its live tags) given to `compare --content`, which reads video on demand only. Each ends as every
/// bad input does.
extension BadInputCatalogueTests {
    static let liveCases: [Case] = [
        run(
            "live-availability-after-content.json", "$.content.live.availabilityStartSeconds",
            "availability start -100 s must be later than the content's length before 0 s (-12 s)"),
        run(
            "live-hold-back-below-part.json", "$.content.live.holdBackSeconds",
            "hold-back 0.5 s must be at least a part target (1 s)"),
        Case(
            fixture: "live-hls-part-hold-back-below-part.json",
            arguments: ["run", "live-hls-part-hold-back-below-part.json", "--out", out + "/results"],
            mentions: ["live-hls/media.m3u8", "line 3", "PART-HOLD-BACK must be at least a part target", "got 0.25"]),
        run(
            "live-target-latency-below-chunk.json", "$.players[0].live.targetLatencySeconds",
            "target latency 0.2 s must be at least one chunk (0.5 s)"),
        run("live-keys-on-vod-content.json", "$.players[0].live", "the live object is only for live content"),
        run(
            "live-seek-to-live-on-vod-content.json", "$.players[0].actions",
            "seekToLive is only for live content, not video on demand"),
        run("live-unknown-catch-up.json", "$.players[0].live.catchUp", "unknown catch-up controller 'vlc'"),
        run(
            "live-dvr-window-below-hold-back.json", "$.content.live.dvrWindowSeconds",
            "must be at least the hold-back for a player to start (6 s)"),
        run(
            "live-chunk-duration-not-dividing.json", "$.content.live.chunkDurationSeconds",
            "chunkDurationSeconds 0.75 s must be a whole fraction of segment 0 (2 s)"),
        run(
            "live-chunk-duration-below-ms.json", "$.content.live.chunkDurationSeconds",
            "a chunk duration must be at least one millisecond, got 0.0005 s"),
        run(
            "live-chunk-duration-with-parts.json", "$.content.live.chunkDurationSeconds",
            "cannot go with partTargetSeconds (LL-HLS parts)"),
        run(
            "live-playlist-bytes-negative.json", "$.content.live.playlistBytes",
            "expected a number in 0…1000000000, found -1"),
        content(
            "live-hls/master.m3u8", "live-hls/media.m3u8: line 8",
            "a live playlist is read only as a scenario's hlsMaster content"),
    ]

    @Test(
        "each bad live input exits 2 with one stderr line naming its file and place, writing nothing",
        arguments: liveCases)
    func badLiveInputExitsWithStatusTwoAndOneLineNamingThePlace(_ badCase: Case) throws {
        try badInputExitsWithStatusTwoAndOneLineNamingThePlace(badCase)
    }
}
