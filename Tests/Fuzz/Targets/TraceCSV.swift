import ABRSim

/// libFuzzer entry: the bytes as a csv trace, read through ``TraceReader``, then made into a looping
/// ``CapacityCurve`` (which validates it).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTraceCSV(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let path = FuzzScratch.write(data, size, to: "trace.csv")
    expectInputErrorsOnly { _ = try TraceReader.read(path: path, format: .csv).curve(atEnd: .loop) }
    return 0
}
