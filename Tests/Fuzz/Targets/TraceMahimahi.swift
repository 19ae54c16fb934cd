import ABRSim

/// libFuzzer entry: the bytes as a mahimahi trace, read through ``TraceReader`` and made into a looping ``CapacityCurve`` (which validates it) with 1 ms and 10 ms bins.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTraceMahimahi(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let path = FuzzScratch.write(data, size, to: "trace.down")
    expectInputErrorsOnly { _ = try TraceReader.read(path: path, format: .mahimahi).curve(atEnd: .loop) }
    expectInputErrorsOnly {
        _ = try TraceReader.read(path: path, format: .mahimahi, mahimahiBinMs: 10).curve(atEnd: .loop)
    }
    return 0
}
