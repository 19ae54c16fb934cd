import ABRSim

/// libFuzzer entry: the bytes as an HLS media playlist, read by ``HLSMediaPlaylist``.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzHLSMedia(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let path = FuzzScratch.write(data, size, to: "media.m3u8")
    expectInputErrorsOnly { _ = try HLSMediaPlaylist.read(path: path) }
    return 0
}
