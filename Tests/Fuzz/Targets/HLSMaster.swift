import ABRSim

/// libFuzzer entry: the bytes as an HLS master playlist, read by ``HLSContent`` next to links to the shipped
/// media playlists (`video_145k.m3u8` …, from `$ABRSIM_FUZZ_DATA/content/hls-apple`), so a valid master goes on
/// to build ``Content``.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzHLSMaster(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    HLSScratch.prepare
    let path = FuzzScratch.write(data, size, to: "hls/master.m3u8")
    expectInputErrorsOnly { _ = try HLSContent.read(masterPath: path) }
    expectInputErrorsOnly { _ = try HLSContent.isPlaylist(path) }
    return 0
}

/// Links the shipped media playlists into the scratch folder `hls/`.
enum HLSScratch {
    static let prepare: Void = {
        FuzzScratch.makeFolder("hls")
        for rate in ["145k", "730k", "2000k", "4500k", "7800k"] {
            FuzzScratch.link(
                "hls/video_\(rate).m3u8", to: "\(FuzzScratch.dataFolder)/content/hls-apple/video_\(rate).m3u8")
        }
    }()
}
