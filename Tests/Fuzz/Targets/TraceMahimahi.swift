import ABRSim

/// libFuzzer entry: the bytes as a mahimahi trace, read through ``TraceReader`` with 1 ms and 10 ms bins, then
/// made into a looping ``CapacityCurve`` (which validates it).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTraceMahimahi(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let path = FuzzScratch.write(data, size, to: "trace.down")
    expectInputErrorsOnly { _ = try TraceReader.read(path: path, format: .mahimahi).curve(atEnd: .loop) }
    expectInputErrorsOnly {
        _ = try TraceReader.read(path: path, format: .mahimahi, mahimahiBinMs: 10).curve(atEnd: .loop)
    }
    return 0
}
