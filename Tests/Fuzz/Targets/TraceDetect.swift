import ABRSim

/// libFuzzer entry: the bytes as a trace of unknown format: ``TraceFormat/detect(path:)`` then the chosen reader.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTraceDetect(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let path = FuzzScratch.write(data, size, to: "trace")
    expectInputErrorsOnly { _ = try TraceReader.read(path: path) }
    return 0
}
