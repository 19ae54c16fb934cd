import ABRSim

/// libFuzzer entry: the bytes as Pensieve's `video_size_0` (one rung), read by ``PensieveSizes``.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPensieveSizes(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    FuzzScratch.makeFolder("sizes")
    _ = FuzzScratch.write(data, size, to: "sizes/video_size_0")
    let folder = "\(FuzzScratch.folder)/sizes"
    expectInputErrorsOnly {
        _ = try PensieveSizes.read(folder: folder, ladderKbps: [300], segmentSeconds: 4, segments: nil)
    }
    return 0
}
