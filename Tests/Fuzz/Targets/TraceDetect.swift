import ABRSim

/// libFuzzer entry: the bytes as a trace of unknown format, as `abrsim trace info FILE` takes it:
/// ``TraceFormat/detect(path:)``, the chosen reader, then ``TraceStatistics`` (1-s bins, GSL percentiles).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTraceDetect(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let path = FuzzScratch.write(data, size, to: "trace")
    expectInputErrorsOnly { _ = try TraceStatistics(TraceReader.read(path: path)) }
    return 0
}
