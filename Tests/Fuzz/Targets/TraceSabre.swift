import ABRSim

/// libFuzzer entry: the bytes as a sabre trace, read through ``TraceReader``, then made into a looping
/// ``CapacityCurve`` (which validates it).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTraceSabre(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let path = FuzzScratch.write(data, size, to: "trace.json")
    expectInputErrorsOnly { _ = try TraceReader.read(path: path, format: .sabre).curve(atEnd: .loop) }
    return 0
}
